// Smoke tests that Clp and Cbc from Debian are linked and solve: a 2-variable LP and the same problem
// with integrality, both solvable by hand; and that the BLAS they call is reported.
#include <catch2/catch.hpp>
#include <dlfcn.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include <CbcModel.hpp>
#include <ClpSimplex.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>

#include "optim/solver_info.hpp"

namespace {

// max x + y  s.t.  2x + y <= 4,  x + 3y <= 6,  x, y >= 0   (as min -x - y)
// Vertex at 2x + y = 4, x + 3y = 6: x = 6/5, y = 8/5, objective 14/5.
// With x, y integer: candidates (2,0),(1,1),(0,2) give 2; (1,2) violates 2x+y<=4? 4 <= 4 ok, x+3y = 7 > 6:
// infeasible; so the integer optimum is 2.
void load_problem(ClpSimplex& model) {
  const int starts[] = {0, 2, 4};
  const int rows[] = {0, 1, 0, 1};
  const double values[] = {2, 1, 1, 3};
  const CoinPackedMatrix matrix(true, 2, 2, 4, values, rows, starts, nullptr);
  const double column_lower[] = {0, 0};
  const double column_upper[] = {COIN_DBL_MAX, COIN_DBL_MAX};
  const double cost[] = {-1, -1};
  const double row_lower[] = {-COIN_DBL_MAX, -COIN_DBL_MAX};
  const double row_upper[] = {4, 6};
  model.loadProblem(matrix, column_lower, column_upper, cost, row_lower, row_upper);
}

}  // namespace

TEST_CASE("Clp solves a 2-variable LP", "[optim][clp]") {
  ClpSimplex model;
  model.setLogLevel(0);
  load_problem(model);
  model.dual();
  REQUIRE(model.status() == 0);
  CHECK(model.objectiveValue() == Approx(-14.0 / 5));
  CHECK(model.primalColumnSolution()[0] == Approx(6.0 / 5));
  CHECK(model.primalColumnSolution()[1] == Approx(8.0 / 5));
}

TEST_CASE("Cbc solves the same problem with integer variables", "[optim][cbc]") {
  OsiClpSolverInterface solver;
  load_problem(*solver.getModelPtr());
  solver.setInteger(0);
  solver.setInteger(1);
  solver.messageHandler()->setLogLevel(0);
  CbcModel model(solver);
  model.setLogLevel(0);
  model.branchAndBound();
  REQUIRE(model.isProvenOptimal());
  CHECK(model.getObjValue() == Approx(-2.0));
}

// The manifest's `blas` entry names the library that answers Clp's BLAS calls: checked against the file
// the dynamic linker resolves dgemm_ to (Clp's dense LU calls it), found independently by dladdr.
TEST_CASE("loaded_blas names the file that provides dgemm_", "[optim][clp]") {
  void* dgemm = dlsym(RTLD_DEFAULT, "dgemm_");
  REQUIRE(dgemm != nullptr);  // the test binary links Clp, which links a BLAS
  Dl_info where{};
  REQUIRE(dladdr(dgemm, &where) != 0);
  const std::string provider = std::filesystem::canonical(where.dli_fname).string();
  const std::string reported = sparsesvm::optim::loaded_blas();
  CHECK(reported.find(provider) != std::string::npos);
  const auto versions = sparsesvm::optim::solver_versions();
  CHECK(std::find(versions.begin(), versions.end(), std::pair<std::string, std::string>{"blas", reported}) != versions.end());
}
