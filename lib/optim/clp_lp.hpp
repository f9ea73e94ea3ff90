#pragma once
// An LP kept in Clp between solves. The constraint matrix is loaded once; later solves change only the
// costs (DCA iterations, a lambda path) or the row bounds (a margin mu) and start from the last optimal
// basis: after a cost change the basis stays primal feasible, so primal simplex continues from it; after
// a row-bound change it stays dual feasible, so dual simplex does. A cold solve is dual simplex from the
// slack basis. Columns and rows can be appended (feature and example generation, models/lp_generation.hpp):
// new columns at zero keep the basis primal feasible, and dual feasible too when their reduced costs are
// nonnegative; new rows with basic slacks keep it dual feasible, and primal feasible too when the last
// solution satisfies them. The next solve picks the simplex that keeps its feasibility, or goes cold when
// neither is kept. Presolve is off throughout. A warm solve that does not end cleanly optimal (status 0 and
// secondary status 0) is repeated cold, and the fallback is reported in the solution. Where a progress sink
// is set (core/progress.hpp), Clp's own status line (iteration, objective, infeasibilities) is passed on
// every kProgressSimplexInterval iterations of a solve; Clp logs nothing otherwise.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "optim/lp_problem.hpp"

class ClpSimplex;
class CoinMessageHandler;

namespace sparsesvm::optim {

// Clp's (status, secondary status) as our status, with a message for anything not clean: optimal,
// solved_inaccurate (optimal for the scaled problem only), infeasible, unbounded, time_limit,
// iteration_limit, numerical_error.
std::pair<core::Status, std::string> classify_clp_status(int status, int secondary);

// Clp's optimality tolerance (1e-7) is absolute: when the hinge costs C_i are all tiny (C = 1e-9 in
// OneNormSVM-C) or the penalty weight is (lambda = 1e-6), reduced costs below it count as zero and Clp
// ends "optimal" far from the optimum, 4% above it at lambda = 1e-6 on a 40 x 400 set (the same LP
// written as C = 1e6 with unit penalty, is solved right). Scaling the costs moves no optimum: the factor
// that brings the smaller of the largest hinge cost and the largest penalty weight to 1 when it is below
// 1e-3 (the largest cost staying below 1e12), else 1.
double clp_cost_scale(double largest_hinge, double largest_penalty, double largest_cost);

// Simplex iterations between the progress lines taken from Clp's log: the first line of a solve comes
// after this many iterations (Clp logs a status at each refactorization, about every 100).
constexpr long kProgressSimplexInterval = 1000;

// The statuses of a basis (ClpLp::basis, ClpLp::start_from), Clp's values (checked in clp_lp.cpp).
enum class BasisStatus : unsigned char { free = 0, basic = 1, at_upper = 2, at_lower = 3 };

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
  // New bounds of every column. The basis stays dual feasible (reduced costs do not change), but
  // nonbasic columns move with their bounds, so the next solve is dual simplex.
  void set_column_bounds(const core::Vector& column_lower, const core::Vector& column_upper);
  // Appends columns whose entries lie in existing rows, with costs checked as set_cost checks them.
  void add_columns(const LpBlock& columns);
  // Appends rows whose entries lie in existing columns; their slacks are basic.
  void add_rows(const LpBlock& rows);
  // Removes rows and columns (indices in any order). Meant for rows whose slacks are basic and columns
  // that are nonbasic at zero: the last basis, without them, is still a basis, and keeps its primal and
  // dual feasibility. Other rows and columns keep their order.
  void remove(const std::vector<int>& rows, const std::vector<int>& columns);
  // Forget the basis: the next solve is cold (for benchmarks and tests).
  void forget_basis();
  // The last basis: Clp's status of every column, then of every row.
  std::vector<unsigned char> basis() const;
  // Starts the next solve (dual simplex) from a basis of another LP of the same size, such as a branch and
  // bound parent's: a nonbasic variable is put at a finite bound of this LP (a free one becomes basic),
  // then basic structurals leave (fixed columns first) or row slacks enter until there are as many basic
  // variables as rows. Neither feasibility is assumed; a singular basis Clp repairs with slacks.
  void start_from(std::vector<unsigned char> basis);
  // warm_iteration_limit > 0: a warm start that has not ended after that many simplex iterations is
  // given up, and the solve goes on cold (a guessed basis far from the optimum: convex_step.hpp's
  // hand-over); the cold solve keeps LpOptions::max_iterations.
  LpSolution solve(long warm_iteration_limit = 0);
  // A solve, warm or cold, that stops after iteration_limit simplex iterations (> 0; with fewer than
  // LpOptions::max_iterations) with status iteration_limit and no cold retry: a budget over several
  // solves (models/lp_generation.hpp's hand-over). iteration_limit <= 0: solve().
  LpSolution solve_within(long iteration_limit);
  // With LpOptions::budget, every solve above is also held to what is left of it (status iteration_limit
  // and no cold retry once it is spent). A solve the budget stops has its basis checked without a pivot:
  // status optimal where the budget ran out on the optimum; a solve asked with the budget spent checks the
  // basis it holds the same way, optimal where that basis answers the LP as changed since, else stopped.

 private:
  // warm_iteration_limit as solve()'s; the warm and the cold solve each stop after iteration_limit.
  LpSolution solve_limited(long warm_iteration_limit, long iteration_limit);
  LpSolution solve_cold();
  LpSolution finish_solve(bool warm);  // reads the solution and charges its iterations to LpOptions::budget
  // Whether the basis held is optimal, by a solve of zero pivots.
  bool basis_is_optimal();
  // Where the budget stopped a solve: that basis checked by a solve of zero pivots, optimal where it is.
  LpSolution check_stopped_basis(LpSolution stopped);
  // A solve asked with the budget spent: optimal where the basis held is, else iteration_limit, no solution.
  LpSolution solve_with_spent_budget();
  long within_budget(long iteration_limit) const;  // iteration_limit, or what is left of the budget if less
  bool cost_admissible(const double* cost, std::size_t count, std::size_t first_column);
  long clean_up_scaling();
  LpSolution read_solution(bool warm, long iterations) const;

  void log_progress_if_wanted();  // Clp's log level for the next solve: 1 where a progress sink is set

  std::unique_ptr<CoinMessageHandler> log_;  // declared first, so that it outlives the model that uses it
  std::unique_ptr<ClpSimplex> model_;
  LpOptions options_;
  // Whether the last basis is still primal (dual) feasible after the changes made since the last solve;
  // a fresh LP has no basis yet.
  bool primal_feasible_ = false;
  bool dual_feasible_ = false;
  std::string out_of_range_;  // why the last set_cost was refused; solve() then reports numerical_error
};

}  // namespace sparsesvm::optim
