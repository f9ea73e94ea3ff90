// Every penalty, one row each. A new penalty is one file in this folder and one row here.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/find_by_id.hpp"
#include "models/penalties/penalty.hpp"

namespace sparsesvm::models {

// The registry rows, one per file of this folder.
PenaltyInfo no_penalty_info();
PenaltyInfo l1_penalty_info();
PenaltyInfo l2_penalty_info();
PenaltyInfo linf_penalty_info();
PenaltyInfo approx_l0_penalty_info();
PenaltyInfo capped_l1_penalty_info();
PenaltyInfo lsp_penalty_info();
PenaltyInfo scad_penalty_info();
PenaltyInfo mcp_penalty_info();
PenaltyInfo capped_penalty_info();

double Penalty::prox(double, double, ProxRule) const {
  throw std::logic_error("penalty " + id() + " has no proximal operator");
}

std::string to_string(Regularizer regularizer) {
  switch (regularizer) {
    case Regularizer::none: return "none";
    case Regularizer::l1: return "l1";
    case Regularizer::l2_squared: return "l2";
    case Regularizer::linf: return "linf";
  }
  throw std::logic_error("to_string: unknown regularizer");
}

double regularizer_value(Regularizer regularizer, const core::Vector& w) {
  switch (regularizer) {
    case Regularizer::none: return 0.0;
    case Regularizer::l1: return w.lpNorm<1>();
    case Regularizer::l2_squared: return w.squaredNorm();
    case Regularizer::linf: return w.size() ? w.lpNorm<Eigen::Infinity>() : 0.0;
  }
  throw std::logic_error("regularizer_value: unknown regularizer");
}

const std::vector<PenaltyInfo>& penalty_registry() {
  static const std::vector<PenaltyInfo> registry = {no_penalty_info(),      l1_penalty_info(),
                                                    l2_penalty_info(),      linf_penalty_info(),
                                                    approx_l0_penalty_info(), capped_l1_penalty_info(),
                                                    lsp_penalty_info(),     scad_penalty_info(),
                                                    mcp_penalty_info(),     capped_penalty_info()};
  return registry;
}

const PenaltyInfo& find_penalty(const std::string& id) {
  return core::find_by_id(penalty_registry(), id, "penalty", [](const PenaltyInfo& info) { return info.id; });
}

std::shared_ptr<const Penalty> make_penalty(const std::string& id, const Hyperparameters& given) {
  const PenaltyInfo& info = find_penalty(id);
  return info.make(resolve_parameters(info.parameters, given, "penalty " + id));
}

}  // namespace sparsesvm::models
