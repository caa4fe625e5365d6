#!/usr/bin/env bash
# Builds the DocC documentation of every library module with swift-docc-plugin and fails on any
# DocC warning (an unresolved link, an undocumented parameter, a broken article) or on a public
# symbol without a doc comment, and on an article whose program listing differs from the example
# it shows (scripts/check-tutorials.py). The archives are left in .build/plugins/Swift-DocC/outputs/.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(MdocErrors MdocCBOR MdocCrypto MdocCOSE MdocModel MdocSession MdocIssuance MdocBLE MdocSim MdocLEHost MdocDBus MdocBlueZ MdocPresentation
    MdocText MdocFiles MdocInspection MdocCapture MdocConformance MdocQR MdocStores MdocRadios MdocNFC MdocPCSC MdocStatusList MdocHTTP MdocOnline SwiftMdoc)
targets=()
for module in "${modules[@]}"; do
    targets+=(--target "$module")
done

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
swift package generate-documentation "${targets[@]}" --warnings-as-errors >"$log" 2>&1 || status=$?
# The plugin's own progress lines go to the log too; show what DocC said.
grep -v '^\[[0-9]*/[0-9]*\] ' "$log" || true
if [ "$status" -ne 0 ] || grep -q 'warning:' "$log"; then
    echo "docs: DocC reported warnings or errors (above)" >&2
    exit 1
fi
python3 scripts/check-doc-comments.py "${modules[@]}"
python3 scripts/check-tutorials.py
