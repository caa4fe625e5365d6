#!/usr/bin/env bash
# The online verifier (Examples/online-verifier, docs/online.md): built from its own folder
# against the library by path, then its tests: real HTTP on loopback, the wallet
# `mdoc-holder respond` of .build/debug (build the programs first: `swift build`), and a
# PostgreSQL of the tests' own (Debian's postgresql package, started as nobody in a temporary
# directory and stopped by its process id) for the store several instances share. It builds in
# .build-examples, the folder of the other example packages (scripts/examples.sh), where the
# library is compiled once for all of them.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .build/debug/mdoc-holder ]; then
    echo "online-verifier: no .build/debug/mdoc-holder; build the programs first (swift build)" >&2
    exit 1
fi
swift build --package-path Examples/online-verifier --scratch-path .build-examples
swift test --package-path Examples/online-verifier --scratch-path .build-examples
echo "online-verifier: built and tested"
