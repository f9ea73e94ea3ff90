// DCA for F = G - H ([DCA] section 3.2, Algorithm 1): at (w^k, b^k) take (eta, kappa) in dH(w^k, b^k)
// and solve the convex step  min G(w, b) - <eta, w> - kappa b  ([DCA] eq. (23)). With the splits of
// losses/ and penalties/,
//   G = sum_i c_i s max(0, m - t_i) + rho g_weight R(w)
//   eta = sum_i c_i h'(t_i) y_i x_i + rho dh_pen(w),   kappa = sum_i c_i h'(t_i) y_i     ([DCA] eq. (22), (30))
// Every nonconvex method of the DCA paper runs on it. The iteration and its stopping rules are
// dc_iterations.hpp's. Note that the penalty's split linearizes sign by sign: for approx_l0 a weight
// that changes sign pays a (2 - e^{-a|w_j|}) per unit, not a e^{-a|w_j|} as in the FSV paper's SLA
// (sla.cpp); both decrease F, from different majorizers.
#include "models/algorithms/dc_iterations.hpp"

namespace sparsesvm::models {
namespace {

class DcaAlgorithm : public Algorithm {
 public:
  std::string id() const override { return "dca"; }
  std::string description() const override {
    return "DC programming: a convex step (LP or QP) per iteration, linearizing the concave part at the iterate";
  }
  const ParameterTable& options() const override {
    static const ParameterTable table = [] {
      ParameterTable all = dc_iteration_options();
      all.push_back(qp_solver_option());
      return all;
    }();
    return table;
  }
  std::vector<std::string> statistic_names() const override { return step_statistic_names(); }
  std::vector<std::string> text_statistic_names() const override { return {kQpSolverColumn}; }
  bool finds_optimum() const override { return false; }
  bool needs_start() const override { return true; }
  std::string unsupported(const Objective& objective) const override { return convex_step_unsupported(objective); }

  FitReport fit(const Objective& objective, Workspace& workspace, const Start& start,
                const Hyperparameters& options) const override {
    const core::Dataset& data = workspace.data();
    return run_dc_iterations(objective, workspace.steps(), start, options, [&](const core::Vector& w, double b) {
      return linearized_step(objective, data, w, b);
    });
  }
};

}  // namespace

std::unique_ptr<const Algorithm> make_dca_algorithm() { return std::make_unique<DcaAlgorithm>(); }

}  // namespace sparsesvm::models
