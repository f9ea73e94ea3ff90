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

// How far (w~, b~) and alpha are from (KKT): the larger of
//   ||X~'(alpha .* y) - D rho (cw s - grad h(w))|| / max(||X~'(alpha .* y)||, ||D rho (cw s - grad h(w))||)  (s nearest)
//   |y'alpha| / sum_i alpha_i.
// 0 at a critical point; 1 or more when the two sides do not balance at all.
double relative_stationarity(const Objective& objective, const core::Dataset& data, const core::LinearModel& model,
                             const core::Vector& scale, const core::Vector& alpha);

// For the convex F = sum_i c_i hinge_i + mu ||w||_1 with value `value` at the point: (F - D) / |F| with D the
// LP dual's value at alpha made dual-feasible (clipped to the box, moved onto y'alpha = 0, scaled into
// |X~_j'(alpha .* y)| <= mu scale_j): an upper bound of the relative distance to the optimum, up to
// rounding. NaN when the box cannot meet y'alpha = 0.
double relative_duality_gap(const Objective& objective, const core::Dataset& data, const core::Vector& scale,
                            double value, core::Vector alpha, double mu);

// Polishing (as OSQP polishes its ADMM): the vertex that (w, b)'s sign pattern and near-active margins
// point to. With S the nonzeros of w and B the examples whose margin lies within `band` of 1, the nearest
// (w_S, b) (w zero off S) with y_i (w_S'x_iS + b) = 1 on B in least squares. ADMM's iterate approaches
// such a vertex slowly; the certificate at the polished point decides whether it is taken.
core::LinearModel polished(const core::Dataset& data, const core::LinearModel& model, double band);

}  // namespace sparsesvm::models
