#pragma once
// Versions of the numerical libraries sparsesvm links, for `sparsesvm --version` and run manifests.
#include <string>
#include <utility>
#include <vector>

namespace sparsesvm::optim {

// {"clp", "1.17.6"}, {"cbc", "2.10.8"}, {"eigen", "3.4.0"}: as compiled in; then {"lapack_blas", loaded_lapack_blas()}.
std::vector<std::pair<std::string, std::string>> solver_versions();

// The files that answer CoinUtils' LAPACK calls (Clp's LU hands a basis's dense part to dgetrf_ and
// dgetrs_ above a density threshold) and the BLAS those reach (dgemm_), as real paths, resolved the way
// the dynamic linker binds them (preloaded and global objects first, then CoinUtils' own dependencies):
// Debian's reference implementation gives
//   "dgetrf_ /usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3.11.0, dgemm_ /usr/lib/x86_64-linux-gnu/blas/libblas.so.3.11.0"
// and OpenBLAS (libopenblas0-serial) files under openblas-serial/; "not loaded" for a symbol nothing
// provides. Which one ran can move an LP's last digits (and, at tied optima, its vertex), so a run's
// provenance includes it (docs/building.md, "A faster BLAS").
std::string loaded_lapack_blas();

}  // namespace sparsesvm::optim
