#!/usr/bin/env bash
# Fuzzing (FuzzTesting/README.md): builds the libFuzzer targets of FuzzTesting/ with
# -sanitize=fuzzer,address and runs them.
#
#   scripts/fuzz.sh list                  the targets
#   scripts/fuzz.sh TARGET [SECONDS]      one target (default 60 s), from its seeds and its earlier finds
#   scripts/fuzz.sh all [SECONDS]         every target in turn
#   scripts/fuzz.sh regressions           replays every input in FuzzTesting/Regressions/TARGET/
#   scripts/fuzz.sh ci                    regressions, then every target for FUZZ_CI_SECONDS (5),
#                                         built unoptimised unless FUZZ_CONFIGURATION says
#
# FUZZ_RUNS=N ends each run after N executions, or at SECONDS if that comes first (the long run
# of RESULTS.md: FUZZ_RUNS=10000000 scripts/fuzz.sh all 7200). FUZZ_CONFIGURATION (release, or
# debug for `ci`) chooses the build: debug is shorter to build and makes fewer executions a
# second, which CI's short runs near the seeds can spare; release is for runs that search.
#
# Finds accumulate in FuzzTesting/.build-fuzz/corpus/TARGET; a crashing input is written to
# FuzzTesting/.build-fuzz/artifacts/TARGET/ and the script exits 1. Each run ends with a line
# "TARGET: N executions in S s (E/s), coverage C, features F".
set -euo pipefail
cd "$(dirname "$0")/.."

package=FuzzTesting
scratch=$package/.build-fuzz
[ "${1:-}" = ci ] && configuration=${FUZZ_CONFIGURATION:-debug} || configuration=${FUZZ_CONFIGURATION:-release}
case $configuration in
    debug | release) ;;
    *) echo "fuzz: FUZZ_CONFIGURATION is debug or release, not $configuration" >&2; exit 64 ;;
esac
targets=(FuzzCBOR FuzzEngagement FuzzSessionData FuzzHolderSession FuzzReaderSession FuzzDeviceRequest
    FuzzDeviceResponse FuzzATT FuzzBLEReassembly FuzzHCI FuzzDBus FuzzCertificateChain FuzzVPICC FuzzAPDU FuzzNDEFHandover FuzzStatusListToken FuzzVICAL FuzzOnline
    FuzzCBORText FuzzOnlineMessages)
# No leak checking: LeakSanitizer does not recognise a Swift heap pointer whose spare bits hold an
# enum's case (BluetoothUUID's storage, for one), so it reports such arrays kept by globals as
# leaked (seen on FuzzATT's GATT service). Memory errors are still caught by AddressSanitizer.
leaks=(-detect_leaks=0)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

build() {
    swift build -c "$configuration" --package-path "$package" --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address 2>&1 \
        | grep -v "Cannot export local symbol '__asan_extra_spill_area'" || true
    for target in "${targets[@]}"; do
        test -x "$scratch/$configuration/$target" || { echo "fuzz: $target was not built" >&2; exit 1; }
    done
}

known() {
    local name
    for name in "${targets[@]}"; do [ "$name" = "$1" ] && return 0; done
    echo "fuzz: no target $1; scripts/fuzz.sh list" >&2
    exit 64
}

run() {
    local target=$1 seconds=$2
    local corpus=$scratch/corpus/$target artifacts=$scratch/artifacts/$target/ log
    mkdir -p "$corpus" "$artifacts"
    log=$(mktemp)
    local status=0 started
    started=$(date +%s)
    "$scratch/$configuration/$target" "${leaks[@]}" -max_total_time="$seconds" ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} \
        -print_final_stats=1 -rss_limit_mb=3072 -artifact_prefix="$artifacts" "$corpus" "$package/Corpus/$target" \
        >"$log" 2>&1 || status=$?
    local elapsed=$(( $(date +%s) - started ))
    [ "$elapsed" -gt 0 ] || elapsed=1
    if [ "$status" -ne 0 ]; then
        tail -60 "$log" >&2
        rm -f "$log"
        echo "fuzz: $target found a failure (exit $status); the input is in $artifacts" >&2
        exit 1
    fi
    local runs coverage features
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    coverage=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | sed -n 's/.*cov: \([0-9]*\).*/\1/p' | tail -1)
    features=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | sed -n 's/.*ft: \([0-9]*\).*/\1/p' | tail -1)
    rm -f "$log"
    echo "$target: $runs executions in $elapsed s ($(( runs / elapsed ))/s), coverage ${coverage:-?}, features ${features:-?}"
}

regressions() {
    local target inputs replayed=0
    for target in "${targets[@]}"; do
        inputs=("$package/Regressions/$target"/*)
        [ -e "${inputs[0]}" ] || continue
        "$scratch/$configuration/$target" "${leaks[@]}" "${inputs[@]}" >/dev/null 2>&1 || {
            echo "fuzz: a regression input of $target fails again:" >&2
            "$scratch/$configuration/$target" "${leaks[@]}" "${inputs[@]}" 2>&1 | tail -40 >&2
            exit 1
        }
        replayed=$(( replayed + ${#inputs[@]} ))
    done
    echo "regressions: $replayed inputs replayed, none failed"
}

case "${1:-}" in
    list) printf '%s\n' "${targets[@]}" ;;
    all) build; for target in "${targets[@]}"; do run "$target" "${2:-60}"; done ;;
    regressions) build; regressions ;;
    ci) build; regressions; for target in "${targets[@]}"; do run "$target" "${FUZZ_CI_SECONDS:-5}"; done ;;
    "") sed -n '2,16p' "$0" >&2; exit 64 ;;
    *) known "$1"; build; run "$1" "${2:-60}" ;;
esac
