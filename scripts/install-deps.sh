#!/usr/bin/env bash
# Installs the system packages swift-mdoc builds against (design.md section 1), when missing.
# Debian/Ubuntu; needs root (or sudo) only when something is missing.
set -euo pipefail

packages=(libcbor-dev libssl-dev pkg-config libqrencode-dev libzbar-dev libpng-dev libjpeg-dev libbluetooth-dev libsystemd-dev)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi

echo "installing: ${missing[*]}" >&2
as_root=()
if [ "$(id -u)" -ne 0 ]; then
    as_root=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update
"${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
