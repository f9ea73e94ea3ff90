#pragma once
// Where the files that ship beside the program are (scripts/plot.py, configs/, datasets/, docs/), found at
// run time from the binary's own location, so that an installed or relocated tree keeps its figures:
//   installed:  <prefix>/bin/sparsesvm  ->  <prefix>/share/sparsesvm
//   build tree: <build>/sparsesvm        ->  the source tree it was built from (SPARSESVM_SOURCE_DIR)
#include <filesystem>

namespace sparsesvm::app {

// The installed share folder when <binary's folder>/../share/sparsesvm has scripts/plot.py, else the
// source tree compiled in (which may be absent on another machine: callers check the file they need).
std::filesystem::path resource_directory();

}  // namespace sparsesvm::app
