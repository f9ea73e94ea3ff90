#include "core/progress.hpp"

#include <atomic>
#include <mutex>

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

}  // namespace

ProgressSink set_progress_sink(ProgressSink sink) {
  const std::lock_guard<std::mutex> lock(sink_mutex());
  sink_set = static_cast<bool>(sink);
  return std::exchange(current_sink(), std::move(sink));
}

bool progress_wanted() { return sink_set; }

void report_progress(const std::string& line) {
  const std::lock_guard<std::mutex> lock(sink_mutex());
  if (current_sink()) current_sink()(line);
}

}  // namespace sparsesvm::core
