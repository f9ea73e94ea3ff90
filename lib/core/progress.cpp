#include "core/progress.hpp"

#include <atomic>
#include <mutex>
#include <utility>

namespace sparsesvm::core {
namespace {

std::mutex& sink_mutex() {
  static std::mutex mutex;
  return mutex;
}
ProgressSink& current_sink() {
  static ProgressSink sink;
  return sink;
}
std::atomic<bool> sink_set{false};
thread_local std::string thread_label;  // ProgressLabel's

}  // namespace

ProgressSink set_progress_sink(ProgressSink sink) {
  const std::lock_guard<std::mutex> lock(sink_mutex());
  sink_set = static_cast<bool>(sink);
  return std::exchange(current_sink(), std::move(sink));
}

bool progress_wanted() { return sink_set; }

void report_progress(const std::string& line) {
  const std::lock_guard<std::mutex> lock(sink_mutex());
  if (current_sink()) current_sink()(thread_label.empty() ? line : thread_label + ": " + line);
}

const std::string& progress_label() { return thread_label; }

std::string timed_line(std::chrono::steady_clock::time_point began, const std::string& line) {
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - began;
  return fmt::format("[{:8.2f} s] {}\n", elapsed.count(), line);
}

ProgressLabel::ProgressLabel(std::string label) : outer_(std::exchange(thread_label, std::move(label))) {}

ProgressLabel::~ProgressLabel() { thread_label = std::move(outer_); }

}  // namespace sparsesvm::core
