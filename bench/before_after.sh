# Sourced by the benchmarks that compare binaries (run_mip.sh, run_capped_global.sh), from the repository's
# root: `binaries` holds label=path pairs, the current build (SPARSESVM, default ./build/sparsesvm) as
# "after" and, with BEFORE=<an older sparsesvm binary>, that one as "before", first.
after=${SPARSESVM:-./build/sparsesvm}
binaries=("after=$after")
if [[ -n "${BEFORE:-}" ]]; then binaries=("before=$BEFORE" "${binaries[@]}"); fi
