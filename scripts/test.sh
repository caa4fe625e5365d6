#!/usr/bin/env bash
# Runs the whole test suite: installs missing system packages, builds, and runs every test target.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --test
swift build --build-tests
source scripts/test-runs.sh
test_runs
