#!/usr/bin/env bash
# The online verifier (Examples/online-verifier, docs/online.md): built from its own folder
# against the library by path, then its tests: real HTTP on loopback, the wallet
# `mdoc-holder respond` of .build/debug (build the programs first: `swift build`), and a
# PostgreSQL of the tests' own (Debian's postgresql package, started as nobody in a temporary
# directory and stopped by its process id) for the store several instances share.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .build/debug/mdoc-holder ]; then
    echo "online-verifier: no .build/debug/mdoc-holder; build the programs first (swift build)" >&2
    exit 1
fi
cd Examples/online-verifier
swift build
swift test
echo "online-verifier: built and tested"
