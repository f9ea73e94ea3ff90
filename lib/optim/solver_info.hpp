#pragma once
// Versions of the numerical libraries sparsesvm links, for `sparsesvm --version` and run manifests.
#include <string>
#include <utility>
#include <vector>

namespace sparsesvm::optim {

// {"clp", "1.17.6"}, {"cbc", "2.10.8"}, {"eigen", "3.4.0"}: as compiled in.
std::vector<std::pair<std::string, std::string>> solver_versions();

}  // namespace sparsesvm::optim
