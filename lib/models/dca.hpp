#pragma once
// DCA for F = G - H ([DCA] section 3.2, Algorithm 1): at (w^k, b^k) take (eta, kappa) in dH(w^k, b^k)
// and solve the convex step  min G(w, b) - <eta, w> - kappa b  ([DCA] eq. (23)). With the splits of
// losses.hpp and penalties.hpp,
//   G = sum_i c_i s max(0, m - t_i) + rho g_weight R(w)
//   eta = sum_i c_i h'(t_i) y_i x_i + rho dh_pen(w),   kappa = sum_i c_i h'(t_i) y_i     ([DCA] eq. (22), (30))
// One driver serves every nonconvex method of the DCA and FSV papers: SLA ([FSV] Algorithm 2.1) is DCA
// on the concave part, so FSV is DCA with loss = class-averaged hinge and penalty = approx_l0 (a = alpha).
//
// Stopping ([DCA] section 4; shared/REPRODUCTION.md): the total change sum_j |dw_j| + |db| is below
// `tolerance`, or F does not decrease (F_{k+1} >= F_k - objective_tolerance (1 + |F_k|)), or, with
// stop_on_surrogate_stall, the step objective does not decrease ([FSV] eq. (10)). DCA never increases F
// in exact arithmetic; an increase beyond the tolerance (a solver inaccuracy) stops the loop at the
// previous iterate and says so in the message.
#include "core/linear_model.hpp"
#include "models/convex_step.hpp"
#include "models/fit_report.hpp"
#include "models/objective.hpp"

namespace sparsesvm::models {

struct DcaOptions {
  double tolerance = 1e-3;           // on sum_j |w_j^{k+1} - w_j^k| + |b^{k+1} - b^k|
  double objective_tolerance = 1e-9; // relative; F changes below it count as "does not decrease"
  int max_iterations = 200;          // DCA iterations; status iteration_limit when reached
  bool stop_on_surrogate_stall = false;
};

// The convex step linearized at (w, b). For a convex objective at any point, this is the objective itself.
ConvexStep linearized_step(const Objective& objective, const core::Dataset& data, const core::Vector& w, double b);

// One convex solve (valid for convex objectives); the report's objective is F at the solution.
FitReport fit_convex(const Objective& objective, StepSolver& solver);

// DCA from `start`; `start_report` (may be null) is the fit that produced the start, whose solves and
// time are added to the report.
FitReport fit_dca(const Objective& objective, StepSolver& solver, const core::LinearModel& start,
                  const DcaOptions& options, const FitReport* start_report = nullptr);

}  // namespace sparsesvm::models
