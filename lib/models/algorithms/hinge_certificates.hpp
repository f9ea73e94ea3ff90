#pragma once
// Certificates for  F(w, b) = sum_i c_i hinge(t_i) + rho (cw ||w||_1 - h(w))  at a given (w, b), with
// t_i = y_i (w'x_i + b) and the penalty's DC split (penalties/penalty.hpp; every penalty with a prox has an
// l1 convex part). Used by ADMM (admm.cpp) to stop only where a certificate holds, and to polish.
//
// (w, b) is critical (stationary; for the convex l1 penalty optimal) when, for some alpha_i in the hinge's
// subdifferential at t_i (c_i for t_i < 1, 0 for t_i > 1, [0, c_i] at 1) and s in that of ||w||_1,
//   X'(alpha .* y) = rho (cw s - grad h(w))   and   y'alpha = 0.                                  (KKT)
// Margins are read with a band: within `band` of 1 alpha_i is free, outside it is fixed.
//
// Coordinates: every function takes the data and the point as the solver iterates on them, X~ = (X - 1 m')D
// and (w~, b~) with D = diag(scale), w = D w~ and b = b~ - m'w (ADMM's equilibration; scale = ones and
// m = 0 for the data as given). The margins, hence alpha and F, are the same in both; feature j's equation
// of (KKT) is multiplied by scale_j (chain rule) and, once y'alpha = 0, loses the centering. Working on
// centered features keeps b~ small: on uncentered data a feature offset by 1e9 makes b of that size, and
// rounding in y'alpha (1e-12) then moves the duality gap by 1e-3 and hides a column's equation.
#include "core/linear_model.hpp"
#include "models/objective.hpp"

namespace sparsesvm::models {

// The multipliers that best satisfy (KKT) at (w~, b~): alpha_i = c_i below the band, 0 above, and on the band
// the entries nearest `guess` that solve the equations of the nonzero w_j and of b in least squares, clipped
// to [0, c_i].
core::Vector hinge_multipliers(const Objective& objective, const core::Dataset& data, const core::LinearModel& model,
                               const core::Vector& scale, const core::Vector& guess, double band);

// The relative gap of the convex majorant at (w, b): with G(v) = sum_i c_i hinge + rho (cw ||v||_1 - h(w)
// - grad h(w)'(v - w)) (h replaced by its tangent at w, so G >= F and G(w) = F(w) = `value`, DCA's model at
// w), returns (F(w) - L) / |F(w)| with L <= min G from alpha made dual-feasible for G's LP:
//   max sum_i alpha_i + rho (grad h(w)'w - h(w))  s.t.  0 <= alpha_i <= c_i,  y'alpha = 0,
//       |X~_j'(alpha .* y) + scale_j rho h'_j(w)| <= scale_j rho cw   for every j
// (alpha clipped to the box, moved onto y'alpha = 0, scaled toward 0 until feasible; |rho h'_j| <= rho cw).
// An upper bound, up to rounding, of how much one DCA step from (w, b) can lower G: 0 exactly at a
// DC-critical point, and for the convex l1 penalty (h = 0) the duality gap, a bound on the distance to the
// optimum. NaN when the box cannot meet y'alpha = 0.
double relative_majorant_gap(const Objective& objective, const core::Dataset& data, const core::LinearModel& model,
                             const core::Vector& scale, double value, core::Vector alpha);

// Polishing (as OSQP polishes its ADMM): the vertex that (w, b)'s sign pattern and near-active margins
// point to. With S the nonzeros of w and B the examples whose margin lies within `band` of 1, the nearest
// (w_S, b) (w zero off S) with y_i (w_S'x_iS + b) = 1 on B in least squares. ADMM's iterate approaches
// such a vertex slowly; the certificate at the polished point decides whether it is taken.
core::LinearModel polished(const core::Dataset& data, const core::LinearModel& model, double band);

}  // namespace sparsesvm::models
