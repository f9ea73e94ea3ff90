#!/usr/bin/env bash
# Installs the given Debian packages that are missing (as root, or through sudo).
# Usage: scripts/install_packages.sh PACKAGE...
set -euo pipefail
missing=()
for package in "$@"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
((${#missing[@]})) || exit 0
echo "install_packages: installing ${missing[*]}"
as_root=()
if ((EUID != 0)); then
  command -v sudo >/dev/null || { echo "install_packages: run as root or install: ${missing[*]}" >&2; exit 1; }
  as_root=(sudo)
fi
"${as_root[@]}" apt-get update -q
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
