#!/usr/bin/env bash
# Runs a command next to the real Linux Bluetooth stack and bluetoothd, in a virtual machine that
# sees this machine's file system (docs/bluez.md, "Tested against the real bluetoothd").
#
#   scripts/bluez-vm.sh [OPTIONS] -- COMMAND [ARG...]
#
# The VM boots Debian's kernel (linux-image-amd64) under QEMU through virtme-ng over a read-only
# snapshot of the host's root file system, so the guest runs the programs built in .build. Inside,
# scripts/bluez-vm-guest.sh starts a system bus, two linked LE controllers (BlueZ's btvirt
# emulator, hci0 and hci1 over /dev/vhci) and bluetoothd, then runs COMMAND as root in the
# current directory. COMMAND's output is relayed; its exit status is this script's.
#
# Options:
#   --logs DIR          where the guest writes its logs (bluetoothd, btvirt, kernel, D-Bus
#                       registrations, timings); default: a new directory under .build/bluez-vm
#   --kvm auto|on|off   hardware virtualisation; auto (default) uses KVM when a probe boots with
#                       it, else QEMU's software emulation (TCG)
#   --cpus N            guest CPUs (default 2)
#   --memory SIZE       guest memory (default 2G)
#   --btmon             record both controllers' HCI traffic to DIR/hci.btsnoop (btmon)
#   --gatt-channels N   bluetoothd's [GATT] Channels: 1 (default here and from BlueZ 5.67 on) or
#                       more, which lets two BlueZ hosts use several ATT bearers (EATT);
#                       "default" keeps Debian's main.conf (5.66: 3)
#   --boot-timeout S    the longest the guest may take to start its script (default 600)
#   --idle-timeout S    the longest the guest may then go without writing output or logs
#                       (default 600)
#   --install           only install what is missing (Debian packages, virtme-ng), then exit
#
# Status: COMMAND's, or 70 when the VM could not run it (did not boot, went silent, or ended
# without reporting a status). A run that fails after a fault of the guest's kernel is run once
# more (below), and the status is the second run's. Nothing it starts outlives it.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

logs=""
kvm=auto
cpus=2
memory=2G
btmon=0
gatt_channels=1
boot_timeout=600
idle_timeout=600
install_only=false
while [ $# -gt 0 ]; do
    case $1 in
        --logs) logs=$2; shift 2 ;;
        --kvm) kvm=$2; shift 2 ;;
        --cpus) cpus=$2; shift 2 ;;
        --memory) memory=$2; shift 2 ;;
        --btmon) btmon=1; shift ;;
        --gatt-channels) gatt_channels=$2; shift 2 ;;
        --boot-timeout) boot_timeout=$2; shift 2 ;;
        --idle-timeout) idle_timeout=$2; shift 2 ;;
        --install) install_only=true; shift ;;
        --) shift; break ;;
        *) echo "bluez-vm: unknown option $1 (see the head of $0)" >&2; exit 64 ;;
    esac
done
case $kvm in auto|on|off) ;; *) echo "bluez-vm: --kvm takes auto, on or off" >&2; exit 64 ;; esac
if ! $install_only && [ $# -eq 0 ]; then
    echo "usage: scripts/bluez-vm.sh [OPTIONS] -- COMMAND [ARG...]" >&2
    exit 64
fi

say() { echo "bluez-vm: $*" >&2; }

bash scripts/install-deps.sh --bluez-vm
$install_only && exit 0
vng=$repo/.build/virtme-ng/bin/vng
export PATH="$repo/.build/virtme-ng/bin:$PATH"

# The newest Debian kernel installed; the guest loads its modules from /lib/modules.
kernel=$(ls -1 /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -1)
[ -n "$kernel" ] || { say "no /boot/vmlinuz-*-amd64 (apt-get install linux-image-amd64)"; exit 70; }

# Whether KVM boots a kernel: QEMU may open /dev/kvm and still fail, at once (a CPU model the
# host refuses) or by hanging before the kernel prints anything (nested virtualisation). The probe
# waits for the kernel's first line, which takes a second with working KVM.
kvm_probe_timeout=30
kvm_boots() {
    [ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
    local serial pid waited=0
    serial=$(mktemp)
    qemu-system-x86_64 -accel kvm -cpu host -m 256 -smp 1 -nodefaults -display none -no-reboot \
        -serial "file:$serial" -kernel "$kernel" -append "console=ttyS0 earlyprintk=serial,ttyS0 panic=-1" \
        </dev/null >/dev/null 2>&1 &
    pid=$!
    while kill -0 "$pid" 2>/dev/null && ! grep -qa "Linux version" "$serial" && [ $waited -lt $kvm_probe_timeout ]; do
        sleep 1
        waited=$((waited + 1))
    done
    local booted=1
    grep -qa "Linux version" "$serial" && booted=0
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    rm -f "$serial"
    return $booted
}
accel=()
case $kvm in
    off) accel=(--disable-kvm) ;;
    on) ;;
    auto)
        if kvm_boots 2>/dev/null; then
            say "KVM works: hardware virtualisation"
        else
            say "KVM is missing or does not boot a kernel here: software emulation (TCG), much slower"
            accel=(--disable-kvm)
        fi ;;
esac

if [ -z "$logs" ]; then
    mkdir -p .build/bluez-vm
    logs=$(mktemp -d "$repo/.build/bluez-vm/run-XXXXXX")
fi
mkdir -p "$logs"
logs=$(cd "$logs" && pwd)
# Boots the VM once, runs the command in it and returns its status (70: see the head of this file).
run_once() {
    rm -f "$logs/started" "$logs/ready" "$logs/status"
    # The command travels in a file: the kernel command line that carries --exec is short.
    printf '%q ' "$@" >"$logs/command"
    echo >>"$logs/command"

    say "booting $(basename "$kernel") with $cpus CPUs and $memory; logs in $logs"
    start=$(date +%s)
    # A session of its own, so that the VM and everything under it can be stopped together. Its output
    # goes through a pipe: QEMU opens /proc/self/fd/1 and /2 again for the guest's standard output and
    # error, which on a file would give two write positions overwriting each other.
    setsid "$vng" --run "$kernel" --cpus "$cpus" --memory "$memory" "${accel[@]}" --rwdir "$logs" --cwd "$repo" \
        --exec "BLUEZ_VM_BTMON=$btmon BLUEZ_VM_GATT_CHANNELS=${gatt_channels#default} bash $repo/scripts/bluez-vm-guest.sh $logs" </dev/null > >(cat >"$logs/console.log") 2>&1 &
    vm=$!
    stop_vm() {
        if kill -0 "$vm" 2>/dev/null; then
            kill -TERM -- "-$vm" 2>/dev/null || true
            local waited=0
            while kill -0 -- "-$vm" 2>/dev/null && [ $waited -lt 20 ]; do sleep 0.5; waited=$((waited + 1)); done
            kill -KILL -- "-$vm" 2>/dev/null || true
        fi
        wait "$vm" 2>/dev/null || true
        if pgrep -g "$vm" >/dev/null 2>&1; then
            say "processes of the VM remain: $(pgrep -g "$vm" | tr '\n' ' ')"
        fi
    }
    trap 'stop_vm; kill "$relay" 2>/dev/null || true' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM

    # Relay the guest's output as it comes.
    tail -n +1 -F --pid="$vm" "$logs/console.log" 2>/dev/null &
    relay=$!

    # The newest modification time among the logs (the guest's output included), in seconds.
    last_activity() {
        find "$logs" -type f -printf '%T@\n' 2>/dev/null | sort -n | tail -1 | cut -d. -f1
    }
    failure=""
    while kill -0 "$vm" 2>/dev/null; do
        sleep 2
        now=$(date +%s)
        if [ ! -e "$logs/started" ]; then
            if [ $((now - start)) -ge "$boot_timeout" ]; then
                failure="the guest did not start its script within $boot_timeout s"
                break
            fi
        elif [ $((now - $(last_activity))) -ge "$idle_timeout" ]; then
            failure="the guest wrote nothing for $idle_timeout s"
            break
        fi
    done
    if [ -n "$failure" ]; then
        say "$failure: stopping the VM"
        stop_vm
    fi
    wait "$vm" 2>/dev/null || true
    sleep 0.5
    kill "$relay" 2>/dev/null || true
    wait "$relay" 2>/dev/null || true
    say "the VM ran for $(( $(date +%s) - start )) s"
    if [ -s "$logs/status" ]; then
        return "$(cat "$logs/status")"
    fi
    say "the VM ended without the command's exit status${failure:+ ($failure)}; see $logs"
    return 70
}

# A fault of the guest's own kernel, as it logs one: the kernel then kills the process that hit it
# and may leave the Bluetooth stack unusable, which no program above it causes or can recover from.
kernel_fault='kernel BUG at|Oops:|list_del corruption|general protection fault|BUG: unable to handle|BUG: KASAN'

# Debian's 6.1 kernel hit such a fault once in CI, in hci_chan_del (list_del corruption) as
# bluetoothd closed an L2CAP socket of a link that both controllers were dropping; upstream fixed a
# corruption of that list later ("Bluetooth: L2CAP: Fix corrupted list in hci_chan_del"). bluetoothd
# died with it and every session after it failed. A run that fails after a fault of the guest
# kernel is therefore run once more, after showing the fault; its result is the second run's. A
# failure without a kernel fault, or a second fault, is the result as it stands.
# (The kernel log is written when the guest's script ends; a guest that died with its kernel left
# the fault on its console.)
status=0
run_once "$@" || status=$?
if [ "$status" -ne 0 ] && grep -qaE "$kernel_fault" "$logs/kernel.log" "$logs/console.log" 2>/dev/null; then
    say "the guest kernel faulted (the command's status was $status):"
    grep -haE -A3 "$kernel_fault" "$logs/kernel.log" "$logs/console.log" 2>/dev/null | head -20 >&2
    first=$logs
    logs=$(mktemp -d "$first.again-XXXXXX")
    say "running the VM once more"
    status=0
    run_once "$@" || status=$?
fi
exit "$status"
