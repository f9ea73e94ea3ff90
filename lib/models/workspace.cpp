#include "models/workspace.hpp"

#include <fmt/format.h>
#include <stdexcept>

#include "core/errors.hpp"
#include "models/example_weights.hpp"

namespace sparsesvm::models {

Workspace::Workspace(const core::Dataset& train, std::uint64_t seed, StepSolverOptions step_options)
    : data_(&train), seed_(seed), step_options_(step_options) {
  if (train.count_missing() > 0) {
    throw core::InputError(fmt::format("data set {}: {} missing values; impute them (transform impute_mean) before "
                                       "fitting",
                                       train.name(), train.count_missing()));
  }
  if (train.d() == 0) {
    throw core::InputError(fmt::format("data set {}: no features (d = 0); check the loader's drop_columns", train.name()));
  }
  if (train.count_positive() == 0 || train.count_negative() == 0) {
    throw core::InputError(fmt::format("data set {}: training data has only class {} ({} examples); need both classes",
                                       train.name(), train.count_positive() ? "+1" : "-1", train.n()));
  }
}

Workspace::~Workspace() = default;

void Workspace::set_example_weights(core::Vector weights) {
  if (!fits_.empty()) throw std::logic_error("Workspace::set_example_weights after a fit");
  if (weights.size() == 0) return;
  check_example_weights(weights, *data_);
  std::vector<std::size_t> kept;
  for (Eigen::Index i = 0; i < weights.size(); ++i) {
    if (weights[i] > 0) kept.push_back(static_cast<std::size_t>(i));
  }
  if (kept.size() < static_cast<std::size_t>(weights.size())) {
    weighted_examples_ = std::make_unique<const core::Dataset>(data_->subset(kept));
    data_ = weighted_examples_.get();
    core::Vector positive(static_cast<Eigen::Index>(kept.size()));
    for (std::size_t k = 0; k < kept.size(); ++k) positive[static_cast<Eigen::Index>(k)] = weights[static_cast<Eigen::Index>(kept[k])];
    weights = std::move(positive);
  }
  example_weights_ = std::move(weights);
}

StepSolver& Workspace::steps() {
  return state<StepSolver>("convex_steps", [this] { return std::make_unique<StepSolver>(*data_, step_options_); });
}

void Workspace::set_tuning(const core::Dataset& tune, std::map<std::string, std::vector<double>> grid,
                           SelectionRules rules) {
  tuning_ = {&tune, std::move(grid), rules};
}

const FitReport* Workspace::find_fit(const std::string& key) const {
  const auto found = fits_.find(key);
  return found == fits_.end() ? nullptr : &found->second;
}

const FitReport& Workspace::store_fit(const std::string& key, FitReport report) {
  return fits_.insert_or_assign(key, std::move(report)).first->second;
}

}  // namespace sparsesvm::models
