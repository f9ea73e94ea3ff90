// No penalty   Omega(w) = 0                      [FSV] (4), RLP
#include "models/penalties/penalty.hpp"

namespace sparsesvm::models {
namespace {

class NoPenalty : public Penalty {
 public:
  std::string id() const override { return "none"; }
  double value(const core::Vector&) const override { return 0.0; }
  Regularizer convex_regularizer() const override { return Regularizer::none; }
};

}  // namespace

PenaltyInfo no_penalty_info() {
  return {"none", "0", "[FSV] (4)", {}, [](const Hyperparameters&) { return std::make_shared<const NoPenalty>(); }};
}

}  // namespace sparsesvm::models
