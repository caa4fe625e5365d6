#!/usr/bin/env bash
# The main job: installs missing system packages, builds, and verifies the ISO/IEC 18013-5
# Annex D DeviceResponse offline (issuer chain, MSO signature and validity, all digests, DeviceMac)
# at a time when its certificates were valid, printing the verification report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build -c release --product mdoc-reader
vectors=Vectors/iso18013-5-annex-d
exec .build/release/mdoc-reader verify "$vectors/device_response.hex" \
    --trust "$vectors/iaca_cert.hex" \
    --transcript "$vectors/session_transcript_bytes.hex" \
    --reader-key Certs/annex-d/eReaderKey.pem \
    --at 2021-01-01T00:00:00Z "$@"
