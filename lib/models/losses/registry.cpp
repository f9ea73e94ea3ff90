// Every loss, one row each. A new loss is one file in this folder and one row here.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/find_by_id.hpp"
#include "models/losses/loss.hpp"

namespace sparsesvm::models {

// The registry rows, one per file of this folder.
LossInfo hinge_loss_info();
LossInfo ramp_loss_info();
LossInfo psi_loss_info();
LossInfo squared_hinge_loss_info();

const std::vector<LossInfo>& loss_registry() {
  static const std::vector<LossInfo> registry = {hinge_loss_info(), ramp_loss_info(), squared_hinge_loss_info(),
                                                psi_loss_info()};
  return registry;
}

const LossInfo& find_loss(const std::string& id) {
  return core::find_by_id(loss_registry(), id, "loss", [](const LossInfo& info) { return info.id; });
}

std::shared_ptr<const Loss> make_loss(const std::string& id, const Hyperparameters& given) {
  const LossInfo& info = find_loss(id);
  return info.make(resolve_parameters(info.parameters, given, "loss " + id));
}

}  // namespace sparsesvm::models
