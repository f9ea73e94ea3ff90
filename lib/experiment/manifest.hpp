#pragma once
// The manifest of a run directory (DIR/manifest.yaml): the resolved config and its SHA-256, the
// overrides, git commit, library versions, host, jobs and shard, start and end times. The resolved
// config is also written alone to DIR/config.yaml, which `collect` reads.
#include <string>

#include "experiment/config.hpp"

namespace sparsesvm::experiment {

struct RunInfo {
  std::string started;   // ISO 8601, UTC
  std::string finished;
  std::size_t jobs = 1;
  std::string shard;     // "i/N" or empty
  std::size_t tasks_run = 0;
  std::size_t tasks_skipped = 0;
  std::size_t tasks_failed = 0;
  std::vector<std::string> skipped_datasets;  // absent data sets skipped with --skip-missing, with how to get them
};

std::string utc_now();
// The git commit the binary was built from ("<12 hex digits>", "+uncommitted" appended when files other
// than results/ and Markdown differed from it at build time, or "unknown" outside a git checkout).
std::string build_commit();
void write_manifest(const std::string& directory, const ExperimentConfig& config, const RunInfo& info);
// DIR/config.yaml, the resolved config: written when a run starts (so that `status` works while it runs,
// after an interrupt, and on a Slurm array before its first shard ends) and again with the manifest.
void write_run_config(const std::string& directory, const ExperimentConfig& config);
// The config of the run in `directory`, for `reader` (status, collect): an InputError naming the path when
// the directory is not a folder or its config.yaml is missing or not a file (a FIFO would block the read).
ExperimentConfig read_run_config(const std::string& directory, const std::string& reader);
// The config of the first directory, after read_run_config of every one: an InputError naming a directory
// that holds a run of another config (shards of one config only).
ExperimentConfig read_shards_config(const std::vector<std::string>& directories, const std::string& reader);

}  // namespace sparsesvm::experiment
