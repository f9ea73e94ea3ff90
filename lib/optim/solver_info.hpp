#pragma once
// Versions of the numerical libraries sparsesvm links, for `sparsesvm --version` and run manifests.
#include <string>
#include <utility>
#include <vector>

namespace sparsesvm::optim {

// {"clp", "1.17.6"}, {"cbc", "2.10.8"}, {"eigen", "3.4.0"}: as compiled in; then {"blas", loaded_blas()}.
std::vector<std::pair<std::string, std::string>> solver_versions();

// The BLAS and LAPACK files this process has loaded (Clp's dense LU calls them), as real paths joined by
// " + ": "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3.11.0 + /usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3.11.0"
// for Debian's reference BLAS, files under openblas-serial/ when libopenblas0-serial is the system's
// choice or on LD_LIBRARY_PATH; "none loaded" when there are none. Which one ran can move an LP's last
// digits (and, at ties, its vertex), so a row's provenance includes it (docs/benchmarks.md, "BLAS").
std::string loaded_blas();

}  // namespace sparsesvm::optim
