#!/usr/bin/env bash
# The inside of scripts/bluez-vm.sh: runs as root in the VM, in the checkout, with LOGS shared
# read-write with the host.
#
#   bluez-vm-guest.sh LOGS                 sets up the Bluetooth stack, runs the command in
#                                          LOGS/command, writes its status to LOGS/status
#   bluez-vm-guest.sh registrations LOGS   prints what the programs left registered with
#                                          bluetoothd (see registrations below); status 1 if any
#   bluez-vm-guest.sh bluetoothd LOGS N    starts bluetoothd again with [GATT] Channels = N
#                                          ("default": as Debian ships it), for the command
#
# Set-up: a system bus; two LE-only controllers from BlueZ's emulator (btvirt -L -l2), linked to
# each other, as hci0 and hci1 through /dev/vhci; bluetoothd 5.66 (Debian's) with both. Every wait
# is a readiness bound. The command gets BLUEZ_VM_LOGS (LOGS) in its environment. The timings go
# to LOGS/guest.log; bluetoothd's debug log, btvirt's output, the kernel log and a D-Bus monitor
# of the registrations go next to it.
set -uo pipefail

# What the programs registered with bluetoothd (GattManager1.RegisterApplication,
# LEAdvertisingManager1.RegisterAdvertisement) and did not unregister themselves, from two D-Bus
# monitors: every such call and every reply (LOGS/dbus-calls.log, one line each), and the bus
# names that went away (LOGS/dbus-names.log). "registered" counts those whose program is still
# on the bus, "abandoned" those bluetoothd dropped because their program left the bus without
# unregistering them. Then each adapter's LEAdvertisingManager1.ActiveInstances. Status 1 unless
# all of it is 0.
registrations() {
    local logs=$1 counts adapter active status=0
    counts=$(awk -F'\t' '
        # NameOwnerChanged(name, old owner, new owner): a unique name whose new owner is empty left.
        FILENAME ~ /dbus-names\.log$/ {
            if ($0 ~ /^signal /) { argument = 0; next }
            if ($0 ~ /^ *string "/) {
                value = $0
                sub(/^ *string "/, "", value)
                sub(/"$/, "", value)
                argument++
                if (argument == 1) name = value
                if (argument == 3 && value == "") gone[name] = 1
            }
            next
        }
        # dbus-monitor --profile: mc time serial sender destination path interface member;
        # mr and err: time serial sender destination reply_serial.
        $1 == "mc" && ($7 == "org.bluez.GattManager1" || $7 == "org.bluez.LEAdvertisingManager1") &&
            $8 ~ /^(Register|Unregister)(Application|Advertisement)$/ { calls[$4 " " $3] = $8; next }
        ($1 == "mr" || $1 == "err") && (($5 " " $6) in calls) {
            member = calls[$5 " " $6]
            delete calls[$5 " " $6]
            if ($1 == "err") next
            kind = member ~ /Application$/ ? "applications" : "advertisements"
            count[$5, kind] += member ~ /^Register/ ? 1 : -1
            owners[$5] = 1
        }
        END {
            for (owner in owners) {
                state = (owner in gone) ? "abandoned" : "registered"
                total[state, "applications"] += count[owner, "applications"]
                total[state, "advertisements"] += count[owner, "advertisements"]
            }
            printf "registered: applications %d advertisements %d; abandoned: applications %d advertisements %d\n",
                total["registered", "applications"], total["registered", "advertisements"],
                total["abandoned", "applications"], total["abandoned", "advertisements"]
        }
    ' "$logs/dbus-names.log" "$logs/dbus-calls.log")
    echo "$counts"
    case $counts in *"applications 0 advertisements 0; abandoned: applications 0 advertisements 0") ;; *) status=1 ;; esac
    for adapter in $(busctl --system --list tree org.bluez 2>/dev/null | grep -E '^/org/bluez/hci[0-9]+$'); do
        active=$(busctl --system get-property org.bluez "$adapter" org.bluez.LEAdvertisingManager1 ActiveInstances 2>/dev/null)
        echo "${adapter##*/}: active advertisements ${active#y }"
        [ "${active#y }" = 0 ] || status=1
    done
    return $status
}

# Polls `$@` every 0.2 s until it succeeds, for at most $1 seconds.
wait_until() {
    local limit=$1 started
    shift
    started=$(date +%s)
    until "$@"; do
        [ $(($(date +%s) - started)) -lt "$limit" ] || return 1
        sleep 0.2
    done
}

adapters_powered() {
    local adapter
    for adapter in hci0 hci1; do
        [ "$(busctl --system get-property org.bluez "/org/bluez/$adapter" org.bluez.Adapter1 Powered 2>/dev/null)" = "b true" ] || return 1
    done
}

# Starts bluetoothd (stopping the one LOGS/bluetoothd.pid names) with [GATT] Channels = $1, or as
# Debian ships it for "default", and waits until it has powered both adapters on. The VM's /etc is
# its own copy. Debian's bluetoothd 5.66 defaults to 3 channels: two BlueZ hosts then talk over
# several ATT bearers (EATT), which do not keep a message's chunks in order; BlueZ 5.67 and later
# default to 1.
start_bluetoothd() {
    local channels=$1 pid
    if [ -s "$logs/bluetoothd.pid" ]; then
        pid=$(cat "$logs/bluetoothd.pid")
        kill "$pid" 2>/dev/null
        wait_until 30 bash -c "! kill -0 $pid 2>/dev/null" || return 1
    fi
    if [ "$channels" = default ]; then
        sed -i -E "s/^#?Channels *=.*/#Channels = 3/" /etc/bluetooth/main.conf
    else
        sed -i -E "s/^#?Channels *=.*/Channels = $channels/" /etc/bluetooth/main.conf
    fi
    /usr/libexec/bluetooth/bluetoothd --nodetach --debug >>"$logs/bluetoothd.log" 2>&1 &
    echo $! >"$logs/bluetoothd.pid"
    wait_until 60 adapters_powered || return 1
    say "bluetoothd $(/usr/libexec/bluetooth/bluetoothd --version) up with hci0 and hci1 powered ($(grep -E '^#?Channels' /etc/bluetooth/main.conf))"
}

uptime_s() { cut -d' ' -f1 /proc/uptime; }
say() { echo "bluez-vm guest [$(uptime_s) s]: $*" | tee -a "$logs/guest.log" >&2; }

case ${1:-} in
    registrations)
        registrations "$2"
        exit ;;
    bluetoothd)
        logs=$2
        start_bluetoothd "$3"
        exit ;;
esac

logs=$1
: >"$logs/started"
say "booted"

# Ends what was started here, writes the status and the kernel log.
background=()
finish() {
    local status=$1
    [ -s "$logs/bluetoothd.pid" ] && background+=("$(cat "$logs/bluetoothd.pid")")
    for pid in "${background[@]}"; do kill "$pid" 2>/dev/null; done
    for pid in "${background[@]}"; do wait "$pid" 2>/dev/null; done
    dmesg >"$logs/kernel.log" 2>&1
    echo "$status" >"$logs/status"
    say "done, status $status"
    exit "$status"
}
fail() {
    say "$*"
    finish 70
}

modprobe hci_vhci || fail "no hci_vhci module for $(uname -r)"

mkdir -p /run/dbus
dbus-daemon --system --fork --nopidfile || fail "the system bus did not start"
wait_until 30 test -S /run/dbus/system_bus_socket || fail "the system bus has no socket"
# The registrations' monitors, line-buffered: the checks read the logs while they grow.
stdbuf -oL dbus-monitor --system --profile "type='method_call',interface='org.bluez.GattManager1'" \
    "type='method_call',interface='org.bluez.LEAdvertisingManager1'" "type='method_return'" "type='error'" \
    >"$logs/dbus-calls.log" 2>&1 &
background+=($!)
stdbuf -oL dbus-monitor --system "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged'" \
    >"$logs/dbus-names.log" 2>&1 &
background+=($!)
say "system bus up"

# The controllers btvirt made that the kernel initialised (their address is btvirt's 00:AA:…).
controllers_ready() {
    [ "$(hciconfig -a 2>/dev/null | grep -c 'BD Address: 00:AA:')" -ge 2 ]
}
controllers_present() {
    [ "$(ls /sys/class/bluetooth 2>/dev/null | grep -c '^hci[0-9]*$')" -ge 2 ]
}
controllers_gone() {
    [ "$(ls /sys/class/bluetooth 2>/dev/null | grep -c '^hci[0-9]*$')" -eq 0 ]
}
# btvirt reads the reply to its device-creation request from /dev/vhci right after the request;
# when the kernel's first command (HCI Reset) is queued before that reply, btvirt takes the
# command for the reply, the Reset is never answered, and the kernel gives up on that controller
# ("hciN: Opcode 0x0c03 failed: -110"; address 00:00:00:00:00:00) and never offers it to
# bluetoothd. It happens most on the first start after boot. Such a controller cannot be revived
# for bluetoothd (its set-up phase is over), so btvirt starts again, with new controllers.
kernel_mark=0
# Whether every controller has either initialised or failed to since btvirt started.
controllers_settled() {
    local device
    controllers_present || return 1
    for device in $(ls /sys/class/bluetooth | grep '^hci[0-9]*$'); do
        hciconfig -a "$device" 2>/dev/null | grep -q 'BD Address: 00:AA:' && continue
        dmesg | tail -n +"$kernel_mark" | grep -q "Bluetooth: $device: .*failed" || return 1
    done
}
btvirt_pid=""
start_controllers() {
    local attempt
    for attempt in 1 2 3 4; do
        kernel_mark=$(($(dmesg | wc -l) + 1))
        btvirt -L -l2 >>"$logs/btvirt.log" 2>&1 &
        btvirt_pid=$!
        wait_until 60 controllers_settled
        controllers_ready && return 0
        say "attempt $attempt: $(hciconfig -a 2>/dev/null | grep -c 'BD Address: 00:AA:') of 2 controllers initialised" \
            "(kernel: $(dmesg | tail -n +"$kernel_mark" | grep -a 'Bluetooth: hci' | tr '\n' ' ')); starting btvirt again"
        kill "$btvirt_pid" 2>/dev/null
        wait "$btvirt_pid" 2>/dev/null
        wait_until 30 controllers_gone || fail "btvirt's controllers did not go away"
    done
    return 1
}
start_controllers || fail "btvirt's two controllers did not come up"
background+=("$btvirt_pid")
say "controllers up: $(hciconfig 2>/dev/null | grep -o '^hci[0-9]*' | sort | tr '\n' ' ')"

if [ "${BLUEZ_VM_BTMON:-0}" = 1 ]; then
    btmon -w "$logs/hci.btsnoop" >/dev/null 2>&1 &
    background+=($!)
fi

start_bluetoothd "${BLUEZ_VM_GATT_CHANNELS:-default}" || fail "bluetoothd did not power hci0 and hci1 on"
: >"$logs/ready"

say "running: $(cat "$logs/command")"
BLUEZ_VM_LOGS=$logs bash -c "$(cat "$logs/command")"
status=$?
say "the command ended with status $status"
finish "$status"
