#!/usr/bin/env bash
# The cost of a P-256 key held by a PKCS#11 token and by a TPM 2.0 against a software key, in one
# run of `mdoc-benchmark keys`: makes a SoftHSM token (softhsm2-util, then a non-extractable key
# pair for signing and derivation with pkcs11-tool) and a software TPM (swtpm, a key made inside
# by tpm2-openssl) in a folder of its own, measures, then stops swtpm by its PID and removes it all.
# Needs the packages of scripts/install-deps.sh --test.
#
#   bash scripts/benchmark-keys.sh                       # release build
#   BENCHMARK_CONFIGURATION=debug bash scripts/benchmark-keys.sh --json
#
# Arguments are passed on to mdoc-benchmark keys (--iterations N, --json). A real token or TPM
# is measured by mdoc-benchmark keys itself (see its --help).
set -euo pipefail
cd "$(dirname "$0")/.."

configuration=${BENCHMARK_CONFIGURATION:-release}
work=$(mktemp -d)
swtpm_pid=
cleanup() {
    if [ -n "$swtpm_pid" ] && kill -0 "$swtpm_pid" 2>/dev/null; then
        kill "$swtpm_pid"
        wait "$swtpm_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

swift build -c "$configuration" --product mdoc-benchmark >/dev/null
bin=$(swift build -c "$configuration" --show-bin-path)

# The token: its own configuration and token directory; the PIN is test material.
module=/usr/lib/softhsm/libsofthsm2.so
export SOFTHSM2_CONF=$work/softhsm2.conf
mkdir "$work/tokens"
printf 'directories.tokendir = %s/tokens\nobjectstore.backend = file\nlog.level = ERROR\n' "$work" >"$SOFTHSM2_CONF"
export MDOC_TOKEN_PIN=246810
softhsm2-util --init-token --free --label benchmark --pin "$MDOC_TOKEN_PIN" --so-pin 13579111 >/dev/null
pkcs11-tool --module "$module" --token-label benchmark --login --pin "$MDOC_TOKEN_PIN" --keypairgen \
    --key-type EC:prime256v1 --label device --id 01 --usage-sign --usage-derive >/dev/null 2>"$work/pkcs11-tool.err" \
    || { cat "$work/pkcs11-tool.err" >&2; exit 1; }

# The TPM: swtpm on two free loopback ports, a key made inside it.
port=$(python3 -c 'import socket
for _ in range(50):
    a, b = socket.socket(), socket.socket()
    try:
        a.bind(("127.0.0.1", 0)); port = a.getsockname()[1]; b.bind(("127.0.0.1", port + 1))
        print(port); break
    except OSError: pass
    finally: a.close(); b.close()')
mkdir "$work/tpm"
swtpm socket --tpm2 --tpmstate dir="$work/tpm" --server type=tcp,port="$port",bindaddr=127.0.0.1 \
    --ctrl type=tcp,port=$((port + 1)),bindaddr=127.0.0.1 --flags not-need-init,startup-clear &
swtpm_pid=$!
for _ in $(seq 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
    sleep 0.1
done
tcti="swtpm:host=127.0.0.1,port=$port"
TPM2OPENSSL_TCTI=$tcti openssl genpkey -provider tpm2 -provider default -algorithm EC -pkeyopt group:P-256 \
    -out "$work/device.tss2.pem" 2>"$work/genpkey.err" || { cat "$work/genpkey.err" >&2; exit 1; }

"$bin/mdoc-benchmark" keys --pkcs11-uri "pkcs11:token=benchmark;object=device;type=private" --module "$module" \
    --tpm2-key-file "$work/device.tss2.pem" --tcti "$tcti" "$@"
