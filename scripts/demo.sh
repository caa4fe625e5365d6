#!/usr/bin/env bash
# The main job: installs missing system packages, builds, and presents the demo mDL
# (Certs/demo/mdl.mdoc) from mdoc-holder to mdoc-reader over the default `sim` transport: the
# holder draws the engagement QR code, the reader connects through the ISO/IEC 18013-5 BLE GATT
# service, requests the elements with reader authentication, the holder approves (--yes), and the
# reader prints the verified result. Extra arguments go to `mdoc demo` (try --preset full).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build
exec .build/debug/mdoc demo "$@"
