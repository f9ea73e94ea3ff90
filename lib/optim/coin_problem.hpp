#pragma once
// An LpProblem in the arrays Coin's solvers (Clp's ClpSimplex, Cbc's OsiClpSolverInterface) load: the
// constraint matrix column-ordered in a CoinPackedMatrix, infinite bounds as +-COIN_DBL_MAX.
#include <CoinFinite.hpp>
#include <CoinPackedMatrix.hpp>
#include <vector>

#include "optim/lp_problem.hpp"

namespace sparsesvm::optim {

std::vector<double> coin_bounds(const core::Vector& bounds);

struct CoinArrays {
  CoinPackedMatrix matrix;
  std::vector<double> column_lower, column_upper, row_lower, row_upper;
};

// std::logic_error unless problem.matrix is compressed.
CoinArrays coin_arrays(const LpProblem& problem);

}  // namespace sparsesvm::optim
