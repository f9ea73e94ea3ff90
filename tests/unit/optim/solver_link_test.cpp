// Smoke tests that Clp and Cbc from Debian are linked and solve: a 2-variable LP and the same problem
// with integrality, both solvable by hand; and that the BLAS they call is reported.
#include <catch2/catch.hpp>
#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstdint>
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

namespace {

// The first object in the process's link map (load order: the program, then its libraries breadth-first,
// which is the global scope's search order) that defines `symbol` itself: the dynamic linker's choice
// found without dlsym(RTLD_DEFAULT), to check loaded_lapack_blas independently.
std::string first_definer(const char* symbol) {
  struct Search {
    const char* symbol;
    std::string found;
  } search{symbol, ""};
  dl_iterate_phdr(
      [](dl_phdr_info* object, std::size_t, void* data) {
        auto& s = *static_cast<Search*>(data);
        if (!s.found.empty() || object->dlpi_name == nullptr || object->dlpi_name[0] == '\0') return 0;
        void* handle = dlopen(object->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
        if (handle == nullptr) return 0;
        void* address = dlsym(handle, s.symbol);
        Dl_info where{};
        // dlsym on a handle also searches the object's dependencies: keep the answer only if it lies in this object.
        if (address != nullptr && dladdr(address, &where) != 0 &&
            reinterpret_cast<std::uintptr_t>(where.dli_fbase) == object->dlpi_addr) {
          s.found = std::filesystem::canonical(object->dlpi_name).string();
        }
        dlclose(handle);
        return 0;
      },
      &search);
  return search.found;
}

}  // namespace

// The manifest's `lapack_blas` entry names the files that answer CoinUtils' dgetrf_ (Clp's dense LU) and
// the BLAS behind it (dgemm_), as the dynamic linker binds them.
TEST_CASE("loaded_lapack_blas names the files that define dgetrf_ and dgemm_", "[optim][clp]") {
  const std::string lapack = first_definer("dgetrf_");
  const std::string blas = first_definer("dgemm_");
  REQUIRE_FALSE(lapack.empty());  // the test binary links Clp, whose CoinUtils links a LAPACK
  REQUIRE_FALSE(blas.empty());
  const std::string reported = sparsesvm::optim::loaded_lapack_blas();
  CHECK(reported == "dgetrf_ " + lapack + ", dgemm_ " + blas);
  const auto versions = sparsesvm::optim::solver_versions();
  CHECK(std::find(versions.begin(), versions.end(), std::pair<std::string, std::string>{"lapack_blas", reported}) !=
        versions.end());
}
