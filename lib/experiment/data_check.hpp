#pragma once
// Before a run is planned or queued (run, run --dry-run, and so slurm_array.sh): every present data file
// of the config is loaded as its tasks will load it, and what no task could fit is refused, naming the
// data set's config key, the file and the fix: a loader error (a wrong delimiter, no class column, a
// missing value), no features (d = 0), every feature constant, or one class only. Without this check such
// a set would run to input_error rows (or every shard of a cluster array would fail).
#include "experiment/config.hpp"

namespace sparsesvm::experiment {

// InputError "datasets[k] (name): file: cause; fix" for the first data set that fails.
void check_data_files(const ExperimentConfig& config);

}  // namespace sparsesvm::experiment
