#!/usr/bin/env bash
# Resource bounds and soak. Not part of scripts/test.sh: it takes minutes.
#
#   bash scripts/soak.sh                 # 1,000 sessions, 10,000 offline verifications,
#                                        # 20,000 presentations in one process
#   SOAK_SESSIONS=100 SOAK_VERIFICATIONS=1000 SOAK_PRESENTATIONS=2000 bash scripts/soak.sh
#   SOAK_CONFIGURATION=release bash scripts/soak.sh
#
# Prints:
#   1. a 10 MB hostile message given to mdoc-holder and mdoc-reader over sim (the
#      ResourceBoundsTests, whose hostile peers live in the test process), and to
#      `mdoc-reader verify` and `mdoc inspect` as a file: the error, exit status and peak RSS;
#   2. SOAK_SESSIONS sequential live sessions (mdoc-reader request, one process each) against
#      one `mdoc-holder present --keep-running`: the holder's resident memory and open file
#      descriptors along the way;
#   3. SOAK_VERIFICATIONS offline verifications of the Annex D response in one process
#      (mdoc-benchmark --soak): resident memory and open descriptors along the way;
#   4. SOAK_PRESENTATIONS whole presentations between a new holder and a new reader driver in
#      one process (mdoc-benchmark presentations --soak): resident memory along the way.
#
# Fails when a session fails, or when the holder of 2 or the process of 4 grows over the second
# half of its run by more than growth_allowance KiB (the allocator grows in steps) plus
# growth_bound KiB per 1,000 sessions. The first half is the
# warm-up: the Swift runtime keeps each cancelled Task.sleep (a session's timeouts) until its
# deadline, so a process serving sessions back to back grows for one timeout's worth of them
# (the holder runs with --timeout 10 here for that reason), and the allocator's arenas grow at
# first; both then hold steady.
set -euo pipefail
cd "$(dirname "$0")/.."

sessions=${SOAK_SESSIONS:-1000}
verifications=${SOAK_VERIFICATIONS:-10000}
presentations=${SOAK_PRESENTATIONS:-20000}
# The most a long-running holder or reader may grow per 1,000 sessions after its warm-up, and
# besides that for the allocator's steps, in KiB (PresentationSoak.growthBound and
# growthAllowance in mdoc-benchmark).
growth_bound=256
growth_allowance=1024
# The holder's --timeout: its sessions' cancelled sleeps are kept for this long.
holder_timeout=10
configuration=${SOAK_CONFIGURATION:-debug}
work=$(mktemp -d)
holder_pid=
cleanup() {
    if [ -n "$holder_pid" ] && kill -0 "$holder_pid" 2>/dev/null; then kill "$holder_pid"; fi
    rm -rf "$work"
}
trap cleanup EXIT
export MDOC_SIM_NAMESPACE="soak-$$/"
start=$(date +%s)

bash scripts/install-deps.sh >/dev/null
swift build -c "$configuration" --build-tests >/dev/null
bin=$(swift build -c "$configuration" --show-bin-path)
# Git checks the demo credential out 0644; mdoc-holder requires 0600 of a credential.
chmod 600 Certs/demo/mdl.mdoc

# Runs a command and prints its exit status, the last line it wrote on standard error and the
# peak resident memory of the process (getrusage of the child, in KiB).
peak_rss() {
    python3 - "$@" <<'PYTHON'
import resource, subprocess, sys
result = subprocess.run(sys.argv[1:], capture_output=True)
last = (result.stderr.decode(errors="replace").strip().splitlines() or [""])[-1]
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"exit {result.returncode}, peak RSS {peak} KiB: {last}")
PYTHON
}

echo "== 1. A 10 MB hostile message"
swift test -c "$configuration" --skip-build --filter ResourceBoundsTests 2>&1 | grep -E "^resource bounds:|Test run" || true
python3 -c "import os, sys; sys.stdout.buffer.write(os.urandom(10 * 1024 * 1024))" > "$work/random.bin"
# A CBOR byte string head declaring 10 MiB, followed by 10 MiB.
python3 -c "import os, sys; sys.stdout.buffer.write(bytes([0x5a, 0x00, 0xa0, 0x00, 0x00]) + bytes(10 * 1024 * 1024))" > "$work/bytestring.cbor"
echo "mdoc-reader verify, 10 MiB of random bytes: $(peak_rss "$bin/mdoc-reader" verify "$work/random.bin" --trust Certs/demo/iaca.pem)"
echo "mdoc-reader verify, a 10 MiB CBOR byte string: $(peak_rss "$bin/mdoc-reader" verify "$work/bytestring.cbor" --trust Certs/demo/iaca.pem)"
echo "mdoc inspect, a 10 MiB CBOR byte string: $(peak_rss "$bin/mdoc" inspect "$work/bytestring.cbor")"

echo "== 2. $sessions sequential sessions against one mdoc-holder --keep-running (sim)"
"$bin/mdoc-holder" present --credential Certs/demo/mdl.mdoc --yes --no-qr --ble-mode peripheral \
    --timeout "$holder_timeout" --keep-running >"$work/holder.out" 2>"$work/holder.err" &
holder_pid=$!

# The holder's Nth engagement URI, waiting up to 60 s for it.
engagement() {
    local wanted=$1 tries
    for ((tries = 0; tries < 6000; tries++)); do
        if [ "$(grep -c '^mdoc:' "$work/holder.out")" -ge "$wanted" ]; then
            grep '^mdoc:' "$work/holder.out" | sed -n "${wanted}p"
            return 0
        fi
        sleep 0.01
    done
    echo "soak: the holder showed no engagement $wanted; its errors:" >&2
    tail -5 "$work/holder.err" >&2
    return 1
}
resident() {
    awk '/^VmRSS/ {print $2}' "/proc/$holder_pid/status"
}
resources() {
    echo "RSS $(resident) KiB, $(ls "/proc/$holder_pid/fd" | wc -l) open descriptors"
}

sessions_start=$(date +%s)
half_time=$sessions_start
half_resident=0
engagement 1 >/dev/null
echo "holder before the first session: $(resources)"
failures=0
for ((session = 1; session <= sessions; session++)); do
    uri=$(engagement "$session")
    if ! "$bin/mdoc-reader" request "$uri" --preset age-over-18 --trust Certs/demo/iaca.pem \
        --ble-mode peripheral --timeout 60 >"$work/reader.out" 2>"$work/reader.err"; then
        failures=$((failures + 1))
        echo "session $session failed: $(tail -1 "$work/reader.err")"
    fi
    if [ "$session" -eq 1 ] || [ "$session" -eq 10 ] || [ $((session % (sessions / 10 > 0 ? sessions / 10 : 1))) -eq 0 ]; then
        engagement $((session + 1)) >/dev/null
        echo "holder after session $session: $(resources)"
    fi
    if [ "$session" -eq $((sessions / 2)) ]; then
        engagement $((session + 1)) >/dev/null
        half_resident=$(resident)
        half_time=$(date +%s)
        echo "holder after the first half (the warm-up): $(resources)"
    fi
done
engagement $((sessions + 1)) >/dev/null
end_resident=$(resident)
growth_failed=0
judged=$((sessions - sessions / 2))
if [ "$judged" -ge 200 ] && [ $((half_time - sessions_start)) -ge $((2 * holder_timeout)) ]; then
    growth=$((end_resident - half_resident))
    limit=$((growth_allowance + growth_bound * judged / 1000))
    if [ "$growth" -le "$limit" ]; then verdict=within; else verdict=EXCEEDED; growth_failed=1; fi
    echo "holder: over the second half resident memory grew $growth KiB, $((growth * 1000 / judged)) KiB per 1,000 sessions (limit $limit KiB: $growth_allowance + $growth_bound per 1,000): $verdict"
else
    echo "holder: too few sessions to judge growth (400 and a first half of $((2 * holder_timeout)) s needed)"
fi
kill "$holder_pid"
wait "$holder_pid" || true
holder_pid=
echo "sessions: $sessions, failed: $failures, $(($(date +%s) - sessions_start)) s; holder: $(tail -1 "$work/holder.err")"

echo "== 3. $verifications offline verifications in one process"
verify_start=$(date +%s)
"$bin/mdoc-benchmark" --soak "$verifications"
echo "offline verifications took $(($(date +%s) - verify_start)) s"

echo "== 4. $presentations presentations in one process (a new holder and reader driver each)"
presentations_failed=0
"$bin/mdoc-benchmark" presentations --soak "$presentations" || presentations_failed=1

echo "soak took $(($(date +%s) - start)) s"
[ "$failures" -eq 0 ] && [ "$growth_failed" -eq 0 ] && [ "$presentations_failed" -eq 0 ]
