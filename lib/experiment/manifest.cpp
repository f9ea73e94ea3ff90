#include "experiment/manifest.hpp"

#include <chrono>
#include <filesystem>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include "core/errors.hpp"
#include "core/memory_budget.hpp"
#include "core/sha256.hpp"
#include "experiment/csv.hpp"
#include "git_commit.hpp"
#include "optim/solver_info.hpp"


namespace sparsesvm::experiment {

std::string utc_now() {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::chrono::system_clock::to_time_t(std::chrono::system_clock::now())));
}

std::string build_commit() { return SPARSESVM_GIT_COMMIT; }

void write_manifest(const std::string& directory, const ExperimentConfig& config, const RunInfo& info) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "config_file" << YAML::Value << config.path;
  out << YAML::Key << "config_name" << YAML::Value << config.name;
  out << YAML::Key << "config_sha256" << YAML::Value << core::sha256_hex(config.resolved_yaml);
  out << YAML::Key << "overrides" << YAML::Value << YAML::Flow << config.overrides;
  out << YAML::Key << "git_commit" << YAML::Value << build_commit();
  out << YAML::Key << "libraries" << YAML::Value << YAML::BeginMap;
  for (const auto& [library, version] : optim::solver_versions()) out << YAML::Key << library << YAML::Value << version;
  out << YAML::EndMap;
  out << YAML::Key << "host" << YAML::Value << host;
  out << YAML::Key << "jobs" << YAML::Value << info.jobs;
  // The budget decides routes by shape (ADMM's factor or conjugate gradients) and memory_budget rows.
  out << YAML::Key << "memory_budget_bytes" << YAML::Value << core::memory_budget_bytes();
  out << YAML::Key << "shard" << YAML::Value << (info.shard.empty() ? "all" : info.shard);
  out << YAML::Key << "started" << YAML::Value << info.started;
  out << YAML::Key << "finished" << YAML::Value << info.finished;
  out << YAML::Key << "tasks_run" << YAML::Value << info.tasks_run;
  out << YAML::Key << "tasks_skipped" << YAML::Value << info.tasks_skipped;
  out << YAML::Key << "tasks_not_optimal" << YAML::Value << info.tasks_failed;
  out << YAML::Key << "skipped_datasets" << YAML::Value << YAML::BeginSeq;
  for (const std::string& note : info.skipped_datasets) out << note;
  out << YAML::EndSeq;
  out << YAML::Key << "resolved_config" << YAML::Value << YAML::Load(config.resolved_yaml);
  out << YAML::EndMap;
  const std::string name = info.shard.empty() ? "manifest.yaml" : fmt::format("manifest.shard{}.yaml", info.shard.substr(0, info.shard.find('/')));
  write_file_atomically((std::filesystem::path(directory) / name).string(), std::string(out.c_str()) + "\n");
  write_run_config(directory, config);
}

void write_run_config(const std::string& directory, const ExperimentConfig& config) {
  write_file_atomically((std::filesystem::path(directory) / "config.yaml").string(), config.resolved_yaml + "\n");
}

ExperimentConfig read_run_config(const std::string& directory, const std::string& reader) {
  std::error_code error;  // a link loop is not a folder either
  if (!std::filesystem::is_directory(directory, error)) {
    throw core::InputError(fmt::format("{}: not a directory; {} reads run directories", directory, reader));
  }
  const std::filesystem::path config_path = std::filesystem::path(directory) / "config.yaml";
  if (path_kind(config_path) != PathKind::file) {
    throw core::InputError(fmt::format("{}: missing or not a file; {} needs a directory written by sparsesvm run",
                                       config_path.string(), reader));
  }
  return load_config(config_path.string());
}

ExperimentConfig read_shards_config(const std::vector<std::string>& directories, const std::string& reader) {
  const ExperimentConfig config = read_run_config(directories.front(), reader);
  for (std::size_t k = 1; k < directories.size(); ++k) {
    const ExperimentConfig other = read_run_config(directories[k], reader);
    if (other.resolved_yaml != config.resolved_yaml) {
      throw core::InputError(fmt::format("{} holds a run of another config (sha256 {}) than {} (sha256 {}); {} reads "
                                         "the shards of one config",
                                         directories[k], core::sha256_hex(other.resolved_yaml).substr(0, 12),
                                         directories.front(), core::sha256_hex(config.resolved_yaml).substr(0, 12), reader));
    }
  }
  return config;
}

}  // namespace sparsesvm::experiment
