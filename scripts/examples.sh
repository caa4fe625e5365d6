#!/usr/bin/env bash
# The tutorial packages of the SwiftMdoc documentation, each built from its own folder against
# the library by path, run against the toolkit's programs over the `sim` transport (the 18013-5
# GATT service over local sockets): Examples/kiosk-reader reads `mdoc-holder present --yes`,
# Examples/linux-holder presents to `mdoc-reader request`. Each must print a verified answer.
# Uses the programs of .build/debug (build them first: `swift build`). The packages build in one
# folder, .build-examples, shared with Examples/verify-response and Examples/online-verifier, so
# that the library they all depend on by path is compiled once (each package's own .build would
# compile it again).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bin=$root/.build/debug
examples=$root/.build-examples
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export MDOC_SIM_NAMESPACE="examples-$$"

# The first line of `$1` (a descriptor) that starts with mdoc:, read as the program writes it.
engagement_uri() {
    local line
    while IFS= read -r line <&"$1"; do
        case $line in mdoc:*) printf '%s\n' "$line"; return 0 ;; esac
    done
    echo "examples: the holder ended without showing an engagement" >&2
    return 1
}

swift build --package-path Examples/kiosk-reader --scratch-path "$examples"
swift build --package-path Examples/linux-holder --scratch-path "$examples"

echo "== kiosk-reader reads mdoc-holder present --yes"
exec 3< <(exec "$bin/mdoc-holder" present --credential Certs/demo/mdl.mdoc --yes --transport sim --timeout 60 2>"$work/holder.err")
holder=$!
uri=$(engagement_uri 3)
MDOC_TRUST=Certs/demo/iaca.pem "$examples/debug/kiosk-reader" "$uri" sim | tee "$work/kiosk.out"
wait "$holder" || { cat "$work/holder.err" >&2; echo "examples: mdoc-holder failed" >&2; exit 1; }
exec 3<&-
grep -qx 'verified: over 18: yes' "$work/kiosk.out" || { echo "examples: kiosk-reader printed no verified answer" >&2; exit 1; }

echo "== mdoc-reader request reads linux-holder"
# Its standard output is a pipe here, which the C library buffers whole: stdbuf makes it a line
# at a time, so the engagement arrives when it is printed, as on a terminal.
exec 3< <(cd Examples/linux-holder && exec stdbuf -oL "$examples/debug/linux-holder" "$root/Certs/demo/mdl.mdoc" sim 2>"$work/linux-holder.err")
holder=$!
uri=$(engagement_uri 3)
"$bin/mdoc-reader" request "$uri" --preset age-over-18 --trust Certs/demo/iaca.pem --transport sim --timeout 60 | tee "$work/reader.out"
cat <&3 >"$work/linux-holder.out"
wait "$holder" || { cat "$work/linux-holder.err" >&2; echo "examples: linux-holder failed" >&2; exit 1; }
exec 3<&-
cat "$work/linux-holder.out"
grep -q 'age_over_18' "$work/linux-holder.out" || { echo "examples: linux-holder did not say what it released" >&2; exit 1; }
echo "examples: both tutorials verified over sim"
