#!/usr/bin/env bash
# Installs what swift-mdoc needs and is missing (docs/architecture.md section 1). Debian/Ubuntu; needs root
# (or sudo) only when a system package is missing.
#
#   scripts/install-deps.sh                    the system packages the build needs
#   scripts/install-deps.sh --test [PKG ...]   those, the ones the test suite runs (dbus-daemon,
#                                              the openssl command, python3, pcscd with
#                                              vsmartcard's vpcd driver, mount for its test
#                                              daemons' namespaces), the key stores the
#                                              hardware-key tests start (SoftHSM with opensc's
#                                              pkcs11-tool, swtpm with tpm2-tools, and the
#                                              OpenSSL 3 providers tpm2-openssl and
#                                              pkcs11-provider, the latter from
#                                              bookworm-backports on Debian 12), gdb (whose
#                                              gcore writes the core a key-exposure test
#                                              searches), valgrind and binutils for
#                                              scripts/perf-gates.py, postgresql (the
#                                              online verifier's tests start a server of
#                                              their own as nobody; the cluster Debian's
#                                              package may create and start through its
#                                              init script, without systemd, is not used),
#                                              chromium-headless-shell (the browser that
#                                              opens the HTML conformance report), any PKG
#                                              named, and the Python test peers of
#                                              Tests/Interop/requirements.txt
#   scripts/install-deps.sh --bluez-vm         the build's packages and what scripts/bluez-vm.sh
#                                              runs: QEMU, Debian's kernel, busybox for its initramfs,
#                                              bluez, btvirt (bluez-test-tools), dbus-daemon, busctl
#                                              (systemd), the openssl command, and virtme-ng from
#                                              PyPI in .build/virtme-ng
#
# The peers go into the python3 on PATH when it takes packages; a python3 that is externally
# managed (PEP 668, Debian's own) gets them in a virtual environment, .build/test-peers, which
# scripts/test-runs.sh puts first on PATH for the tests.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(libcbor-dev libssl-dev zlib1g-dev pkg-config libqrencode-dev libzbar-dev libpng-dev libjpeg-dev libbluetooth-dev libpcsclite-dev libcurl4-openssl-dev)
test_peers=false
bluez_vm=false
if [ "${1:-}" = "--test" ]; then
    test_peers=true
    shift
    packages+=(dbus-daemon openssl python3 python3-pip python3-venv pcscd vsmartcard-vpcd mount
        softhsm2 opensc swtpm swtpm-tools tpm2-tools tpm2-openssl libtss2-tcti-swtpm0 gdb valgrind binutils postgresql
        chromium-headless-shell "$@")
elif [ "${1:-}" = "--bluez-vm" ]; then
    bluez_vm=true
    packages+=(qemu-system-x86 linux-image-amd64 busybox-static bluez bluez-test-tools dbus-daemon systemd openssl procps
        python3 python3-venv)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "installing: ${missing[*]}" >&2
    as_root=()
    if [ "$(id -u)" -ne 0 ]; then
        as_root=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${as_root[@]}" apt-get update
    "${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi

# pkcs11-provider (the OpenSSL 3 provider for PKCS#11 tokens) is in Debian 12 only in
# bookworm-backports, part of Debian's own archive: its source is added when missing.
if $test_peers && ! dpkg-query -W -f='${Status}' pkcs11-provider 2>/dev/null | grep -q "install ok installed"; then
    as_root=()
    if [ "$(id -u)" -ne 0 ]; then
        as_root=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    if [ "$codename" = bookworm ]; then
        if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
            echo "adding the bookworm-backports source for pkcs11-provider" >&2
            printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm-backports' \
                'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
                "${as_root[@]}" tee /etc/apt/sources.list.d/bookworm-backports.sources >/dev/null
        fi
        "${as_root[@]}" apt-get update
        "${as_root[@]}" apt-get install -y --no-install-recommends -t bookworm-backports pkcs11-provider
    else
        "${as_root[@]}" apt-get update
        "${as_root[@]}" apt-get install -y --no-install-recommends pkcs11-provider
    fi
fi

if $bluez_vm; then
    # virtme-ng, pinned: the version scripts/bluez-vm.sh was written against.
    virtme_ng=.build/virtme-ng
    [ -x "$virtme_ng/bin/vng" ] && exit 0
    echo "installing virtme-ng into $virtme_ng" >&2
    python3 -m venv "$virtme_ng"
    "$virtme_ng/bin/python3" -m pip install --quiet virtme-ng==1.42
    exit 0
fi
$test_peers || exit 0
requirements=Tests/Interop/requirements.txt
source scripts/test-peers-path.sh
python3 -c "import pymdoccbor, cbor2, cbor_diag, pycose, cryptography, bumble, dbus_fast" 2>/dev/null && exit 0
if python3 -c "import sys, sysconfig, os; sys.exit(os.path.exists(os.path.join(sysconfig.get_path('stdlib'), 'EXTERNALLY-MANAGED')))"; then
    echo "installing the Python test peers ($requirements) into $(command -v python3)" >&2
    python3 -m pip install --quiet -r "$requirements"
else
    echo "installing the Python test peers ($requirements) into $test_peers_venv (python3 is externally managed)" >&2
    python3 -m venv "$test_peers_venv"
    "$test_peers_venv/bin/python3" -m pip install --quiet -r "$requirements"
fi
