#pragma once
// The psi loss's one constant that its MIP (algorithms/psi_mip.cpp) shares with it.

namespace sparsesvm::models {

// psi jumps from 2 to a at t = 0, and an optimum often has margins exactly there (the MIP puts examples
// on the boundary): solvers return them within their feasibility tolerance, e.g. t = -1e-9. Margins
// less than this far below 0 count as on the boundary, where psi(0) = a.
inline constexpr double kPsiBoundaryTolerance = 1e-6;

}  // namespace sparsesvm::models
