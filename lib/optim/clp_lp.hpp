#pragma once
// An LP kept in Clp between solves. The constraint matrix is loaded once; later solves change only the
// costs (DCA iterations, a lambda path) or the row bounds (a margin mu) and start from the last optimal
// basis: after a cost change the basis stays primal feasible, so primal simplex continues from it; after
// a row-bound change it stays dual feasible, so dual simplex does. A cold solve is dual simplex from the
// slack basis. Presolve is off throughout. A warm solve that does not end cleanly optimal (status 0 and
// secondary status 0) is repeated cold, and the fallback is reported in the solution.
#include <memory>
#include <string>

#include "optim/lp_problem.hpp"

class ClpSimplex;

namespace sparsesvm::optim {

class ClpLp {
 public:
  explicit ClpLp(const LpProblem& problem, LpOptions options = {});
  ~ClpLp();
  ClpLp(const ClpLp&) = delete;
  ClpLp& operator=(const ClpLp&) = delete;

  std::size_t columns() const;
  std::size_t rows() const;
  void set_cost(const core::Vector& cost);
  void set_row_lower(const core::Vector& row_lower);
  // Forget the basis: the next solve is cold (for benchmarks and tests).
  void forget_basis();
  LpSolution solve();

 private:
  enum class Pending { cold, cost_changed, rows_changed, nothing };
  LpSolution solve_cold();
  long clean_up_scaling();
  LpSolution read_solution(bool warm, long iterations) const;

  std::unique_ptr<ClpSimplex> model_;
  LpOptions options_;
  Pending pending_ = Pending::cold;
  std::string out_of_range_;  // why the last set_cost was refused; solve() then reports numerical_error
};

}  // namespace sparsesvm::optim
