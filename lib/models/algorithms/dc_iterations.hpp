#pragma once
// The iteration that DCA (dca.cpp) and successive linearization (sla.cpp) share: from a start, build a
// convex step at the iterate, solve it in the workspace, accept the solution if it does not raise F,
// and stop on the rules below. The algorithms differ only in how they build the step.
//
// Stopping ([DCA] section 4; [FSV] eq. (10); shared/REPRODUCTION.md): the total change
// sum_j |dw_j| + |db| is below `tolerance`, or F does not decrease (F_{k+1} >= F_k -
// objective_tolerance (1 + |F_k|)), or, with surrogate_stop, the step objective does not decrease.
// Both algorithms decrease F in exact arithmetic (the step majorizes F up to a constant); a step that
// raises F beyond 1e-6 (1 + |F_k|) is refused as a solver inaccuracy (status solved_inaccurate), a
// rounding-level rise ends the iteration; either way the previous iterate is kept and stop_reason says
// so.
//
// Certificate: a step built at the iterate x also measures x. Its majorant G (G >= F up to a constant,
// equal at x) can fall below G(x) by at most G(x) - min G; relative to |F(x)| this is the row's
// certificate (kind majorant_gap), 0 exactly at a DC-critical point. A stop by the rules above is
// therefore confirmed by one more step: within `stationarity_tolerance` the iterate is `converged`,
// otherwise the iteration goes on (the message counts how often). max_iterations, a refused step and a
// rounding-level rise also end with the certificate of the iterate kept: converged or, above the
// tolerance, feasible. A failed step keeps the last iterate, uncertified, with status feasible.
#include <functional>

#include "models/algorithms/algorithm.hpp"
#include "models/convex_step.hpp"

namespace sparsesvm::models {

// tolerance, objective_tolerance, max_iterations, lp_form, surrogate_stop, stationarity_tolerance.
const ParameterTable& dc_iteration_options();

// The relative gap of `step`'s convex majorant G at the iterate (w, b) it was built at, with F(w, b) =
// `value`: (G(x) - min G) / |F(x)|, min G bounded below by the solve `next`'s dual bound, so an upper
// bound on what one more step from x can lower G, up to rounding; 0 exactly at a DC-critical point. NaN
// when `next` is not certified optimal or its bound exceeds G(x) beyond rounding.
double step_majorant_gap(const ConvexStep& step, const StepResult& next, const core::Dataset& data,
                         const core::Vector& w, double b, double value);

// `make_step(w, b)` is the convex step at the iterate (w, b); `steps` solves it (a workspace's caches).
FitReport run_dc_iterations(const Objective& objective, StepSolver& steps, const Start& start,
                            const Hyperparameters& options,
                            const std::function<ConvexStep(const core::Vector&, double)>& make_step);

}  // namespace sparsesvm::models
