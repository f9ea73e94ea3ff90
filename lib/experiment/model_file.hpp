#pragma once
// A fitted model in a file (`fit --model-out`, read by `predict`): YAML, every number with 17 significant
// digits so that it reads back to the same double. Keys:
//   sparsesvm_model: 1            format version
//   commit                        build_commit() of the binary that wrote it
//   method, parameters            the method and its resolved hyperparameters
//   status, objective, stop_reason, statistics   the fit's report (certificates among the statistics)
//   train: {name, n, d, source}   the training data (source: file path and sha256, or generator spec)
//   loader: {format, options}     how the training file was read; predict reads with the same by default
//   transforms: [{name, <learned vectors>}]   in order, as fitted on the training data
//   features: [names]; weights: [w_j on the transformed features]; bias
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/linear_model.hpp"
#include "data/transforms.hpp"

namespace sparsesvm::experiment {

struct SavedModel {
  std::string commit;
  std::string method;
  std::map<std::string, double> parameters;
  std::string status;
  double objective = 0.0;
  std::string stop_reason;
  std::string class_weight;  // the fit's class weight as `fit --class-weight` spells it; "" for none
  std::map<std::string, double> statistics;
  std::string train_name;
  std::size_t train_n = 0;
  std::string train_source;
  std::string loader_format;
  std::vector<std::pair<std::string, std::string>> loader_options;
  std::vector<std::unique_ptr<data::Transform>> transforms;
  std::vector<std::string> features;
  core::LinearModel model{core::Vector(), 0.0};
};

void write_model_file(const std::string& path, const SavedModel& saved);
// InputError "PATH: ..." naming the missing or malformed key.
SavedModel read_model_file(const std::string& path);

// InputError unless `data` has `features`, by count and by name ("WHERE: ..." names the first difference).
void check_same_features(const core::Dataset& data, const std::vector<std::string>& features, const std::string& where);

}  // namespace sparsesvm::experiment
