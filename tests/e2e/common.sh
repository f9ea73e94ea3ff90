# Sourced by the end-to-end scripts that take "PATH/TO/sparsesvm REPO_ROOT": sets bin, root, a temporary
# folder tmp (removed on exit), a failure counter and fail(); the script then runs from the repository root.
set -uo pipefail
bin=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cd "$root" || exit 1
