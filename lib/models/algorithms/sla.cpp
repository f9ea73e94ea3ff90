// Successive linearization ([FSV] Algorithm 2.1): for a penalty sum_j phi(|w_j|) with phi concave on
// [0, inf), replace phi at the iterate by its tangent in |w| and solve
//   min  G_loss(w, b) - <eta, w> - kappa b + rho sum_j phi'(|w_j^k|) |w_j|      ([FSV] (9), v = |w|)
// a weighted l1 LP (the loss's concave part, if any, is linearized as in DCA). The tangent majorizes
// phi(|w|) in both signs of w, so F decreases along the iterates, and the weights do not depend on the
// sign of w_j^k: unlike dca.cpp's split, a weight that changes sign pays phi'(|w_j^k|) per unit too.
// From the zero start the two agree. The iteration and its stopping rules are dc_iterations.hpp's;
// FSV uses surrogate_stop (the paper's rule (10)).
#include <fmt/format.h>

#include "models/algorithms/dc_iterations.hpp"

namespace sparsesvm::models {
namespace {

class SlaAlgorithm : public Algorithm {
 public:
  std::string id() const override { return "sla"; }
  std::string description() const override {
    return "successive linearization ([FSV] 2.1): a weighted-l1 LP per iteration, the concave penalty's tangent in |w|";
  }
  const ParameterTable& options() const override { return dc_iteration_options(); }
  std::vector<std::string> statistic_names() const override { return lp_step_statistic_names(); }
  bool finds_optimum() const override { return false; }
  bool needs_start() const override { return true; }
  std::string unsupported(const Objective& objective) const override {
    if (std::string reason = convex_step_unsupported(objective); !reason.empty()) return reason;
    const core::Vector probe = core::Vector::Ones(1);
    if (objective.penalty->abs_slope(probe).size() == 0) {
      return fmt::format("sla needs a penalty of the form sum_j phi(|w_j|) with phi concave; {} is not",
                         objective.penalty->id());
    }
    return "";
  }

  FitReport fit(const Objective& objective, Workspace& workspace, const Start& start,
                const Hyperparameters& options) const override {
    const core::Dataset& data = workspace.data();
    return run_dc_iterations(objective, workspace.steps(), start, options, [&](const core::Vector& w, double b) {
      ConvexStep step = linearized_loss(objective, data, w, b);
      step.regularizer = Regularizer::l1;
      step.regularizer_weight = objective.penalty_weight;
      step.feature_weights = objective.penalty->abs_slope(w);  // [FSV] (9): alpha e^{-alpha v^i} on v = |w|
      return step;
    });
  }
};

}  // namespace

std::unique_ptr<const Algorithm> make_sla_algorithm() { return std::make_unique<SlaAlgorithm>(); }

}  // namespace sparsesvm::models
