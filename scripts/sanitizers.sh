#!/usr/bin/env bash
# The test suite under AddressSanitizer and under ThreadSanitizer, each in a build folder
# of its own, in the same runs as scripts/test.sh (scripts/test-runs.sh). The programs the tests
# start are built with the same sanitizer, so a report in a holder or a reader fails its test too
# (exit status 66 for ThreadSanitizer, 1 for AddressSanitizer).
#
# Left out under both: ResourceBoundsTests, which measure the programs' resident memory against
# bounds meant for normal builds (a sanitizer's shadow memory and quarantine multiply it); and
# the suites with a key in SoftHSM (KeyProviderTests, TokenDeviceKeyTests, TokenKeyGenerationTests,
# TokenFailureTests, TokenKeyExposureTests, UnlockEachSessionTests, KeyBenchmarkCommandTests), because pkcs11-provider opens the PKCS#11 module with RTLD_DEEPBIND, which the sanitizer runtimes
# refuse: the process aborts ("You are trying to dlopen ... with RTLD_DEEPBIND flag which is
# incompatible with sanitizer runtime", seen under AddressSanitizer). They run in the plain suite.
# AddressSanitizer runs without leak detection: LeakSanitizer does not recognise a Swift heap
# pointer whose spare bits hold an enum's case, and reports what globals keep that way as leaked
# (FuzzTesting/README.md). ThreadSanitizer runs with scripts/tsan-suppressions.txt (the reason is
# in the file). Both slow the programs several times over, so the bounds a correct session must
# end within are tripled (MDOC_TEST_TIMEOUT_SCALE, Sources/MdocTestSupport/TimeoutScale.swift).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --test
source scripts/test-runs.sh
export MDOC_TEST_TIMEOUT_SCALE=3

suite() {
    local sanitizer=$1
    local scratch=.build-$sanitizer
    local options=(--scratch-path "$scratch" --sanitize="$sanitizer" --skip ResourceBoundsTests --skip KeyProviderTests --skip TokenDeviceKeyTests
        --skip TokenKeyGenerationTests --skip TokenFailureTests --skip TokenKeyExposureTests --skip UnlockEachSessionTests --skip KeyBenchmarkCommandTests)
    swift build --build-tests --scratch-path "$scratch" --sanitize="$sanitizer"
    test_runs "${options[@]}"
}

ASAN_OPTIONS=detect_leaks=0 suite address
TSAN_OPTIONS="suppressions=$PWD/scripts/tsan-suppressions.txt" suite thread
