#!/usr/bin/env python3
"""Performance gates: instructions and heap allocations per operation against a baseline.

    python3 scripts/perf-gates.py                  compare with Benchmarks/perf-gates.json
    python3 scripts/perf-gates.py --update         measure and write the baseline
    python3 scripts/perf-gates.py --self-test      also show that a slowdown fails the gate

As swift-nio keeps its allocation-counter tests: each workload of `mdoc-benchmark` runs under
valgrind twice, with a small and a larger count of operations, once under callgrind (instructions
executed) and once under DHAT (heap blocks allocated, and their bytes); the difference of the two
runs, divided by the difference of the counts, is the cost of one operation with the program's
start and set-up taken out. Both counts are the same on a busy machine as on a quiet one (callgrind
counts instructions, not time), so the gates run in CI beside anything else.

A measured figure above its baseline by more than the tolerance fails, printing every figure;
a deliberate change measures again with --update and commits the new baseline with the change.
A figure below its baseline by more than the tolerance passes with a note to update the baseline,
so that the gain is kept. The baseline records the toolchain, OpenSSL, glibc and valgrind it was
measured with, and the gate names any that differ here: counts move with them too, and a figure
past its limit then may be theirs rather than the change's.

--self-test runs the warm verification again with OpenSSL held to its generic C code
(OPENSSL_ia32cap=0:0, as on a processor without its vector and hash extensions): a real slowdown
of the same binary, which the gate must fail.

The workloads (`mdoc-benchmark`, release build, .build/release by default; `make` or
`swift build -c release --product mdoc-benchmark` makes it):
  verify-warm   verify --soak N --warm      the Annex D DeviceResponse, one verifier throughout
  verify-cold   verify --soak N             the same, a new verifier for each
  session       sessions --soak N           a whole session of the demo mDL between a holder
                                            and a reader session on one thread: engagement,
                                            session establishment, request, consent, response
                                            with DeviceMac, its verification, termination
  verify-1000   verify RESPONSE --soak N --warm
                                            a response of 1,000 short text elements (made by
                                            `scaling --save-inputs`), the cost that grows with
                                            the elements a response holds
  online        online --soak N             an ISO/IEC TS 18013-7 Annex C answer of the demo
                                            mDL (every element): opened (HPKE) and verified
                                            with a new verifier, as a verifier service does
  status        status --soak N             one document's status read from a Status List
                                            Token of 2^20 entries the reader holds: decoding,
                                            ES256, the binding to the document signer, the
                                            list inflated, the entry read
Valgrind 3.19 cannot read the DWARF 5 of Swift 6's toolchain, so a copy of the program without
its debugging information is measured; and it crashes in the tasks of `presentations` (the
drivers over the in-memory radio), so the session is measured through the state machines, which
do the same protocol work.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE = os.path.join(ROOT, "Benchmarks", "perf-gates.json")

# Each workload: its arguments with {n} for the count, and the two counts measured. A soak
# reports memory after each tenth of its run, so both counts are multiples of ten: the reports of
# the two runs are as many and cancel out.
WORKLOADS = {
    "verify-warm": (["verify", "--soak", "{n}", "--warm"], 20, 40),
    "verify-cold": (["verify", "--soak", "{n}"], 20, 40),
    "session": (["sessions", "--soak", "{n}"], 10, 30),
    "verify-1000": (["verify", "{elements}/response.cbor", "--trust", "{elements}/iaca.pem",
                     "--transcript", "{elements}/session_transcript_bytes.cbor", "--reader-key", "{elements}/eReaderKey.pem",
                     "--soak", "{n}", "--warm"], 10, 20),
    "online": (["online", "--soak", "{n}"], 10, 30),
    "status": (["status", "--soak", "{n}"], 10, 30),
}

# The response of verify-1000: a thousand short text elements, issued and presented by
# `mdoc-benchmark scaling`, which keeps it with its IACA, transcript and reader key.
ELEMENTS = 1000

# How far above its baseline a figure may be: instructions vary by a few hundredths of a percent
# between runs (hash seeds, ECDSA nonces); allocations do not vary at all.
TOLERANCE = {"instructions": 0.02, "allocations": 0.01, "allocatedBytes": 0.02}

# The environment variable and value of --self-test's slowdown.
SLOWDOWN = ("OPENSSL_ia32cap", "0:0")


def run(command, environment=None):
    """Runs `command` and returns its standard error; exits on failure with what it printed."""
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=environment)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        sys.exit(f"perf-gates: {' '.join(command)} failed with status {result.returncode}")
    return result.stderr


def instructions(program, arguments, environment):
    """The instructions callgrind counts for one run (its "summary:" line)."""
    with tempfile.TemporaryDirectory() as folder:
        output = os.path.join(folder, "callgrind.out")
        run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={output}", program] + arguments, environment)
        with open(output) as file:
            for line in file:
                if line.startswith("summary:"):
                    return int(line.split()[1])
    sys.exit(f"perf-gates: callgrind wrote no summary for {' '.join(arguments)}")


def allocations(program, arguments, environment):
    """The heap blocks DHAT counts for one run, and their bytes ("Total: B bytes in N blocks")."""
    with tempfile.TemporaryDirectory() as folder:
        errors = run(["valgrind", "--tool=dhat", f"--dhat-out-file={os.path.join(folder, 'dhat.out')}", program] + arguments,
                     environment)
    match = re.search(r"Total:\s+([\d,]+) bytes in ([\d,]+) blocks", errors)
    if not match:
        sys.exit(f"perf-gates: DHAT printed no total for {' '.join(arguments)}")
    return int(match.group(2).replace(",", "")), int(match.group(1).replace(",", ""))


def measure(program, name, inputs, environment=None):
    """The instructions, allocations and allocated bytes of one operation of workload `name`,
    whose inputs are in the folder `inputs`."""
    template, small, large = WORKLOADS[name]
    def arguments(count):
        return [part.replace("{n}", str(count)).replace("{elements}", inputs) for part in template]
    steps = large - small
    ir = instructions(program, arguments(large), environment) - instructions(program, arguments(small), environment)
    (blocks_large, bytes_large) = allocations(program, arguments(large), environment)
    (blocks_small, bytes_small) = allocations(program, arguments(small), environment)
    return {
        "instructions": round(ir / steps),
        "allocations": round((blocks_large - blocks_small) / steps),
        "allocatedBytes": round((bytes_large - bytes_small) / steps),
    }


def environment_versions():
    """What the counts depend on besides the code: the toolchain, OpenSSL, glibc and valgrind."""
    def first_line(command):
        return subprocess.run(command, capture_output=True, text=True).stdout.strip().splitlines()[0]
    return {
        "swift": first_line(["swift", "--version"]),
        "openssl": first_line(["openssl", "version"]),
        "glibc": first_line(["ldd", "--version"]),
        "valgrind": first_line(["valgrind", "--version"]),
    }


def compare(baseline, measured):
    """The lines of the comparison and whether every figure is within its tolerance."""
    lines = [f"{'workload':<14} {'figure':<15} {'baseline':>12} {'measured':>12} {'ratio':>7} {'limit':>7}  verdict"]
    passed = True
    for name, figures in measured.items():
        for figure, value in figures.items():
            expected = baseline[name][figure]
            ratio = value / expected if expected else float("inf")
            limit = 1 + TOLERANCE[figure]
            if ratio > limit:
                verdict = "FAILED: above the limit"
                passed = False
            elif ratio < 2 - limit:
                verdict = "passed, below the baseline: update it (--update) to keep the gain"
            else:
                verdict = "passed"
            lines.append(f"{name:<14} {figure:<15} {expected:>12,} {value:>12,} {ratio:>7.3f} {limit:>7.3f}  {verdict}")
    return lines, passed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--update", action="store_true", help="measure and write the baseline")
    parser.add_argument("--self-test", action="store_true", help="also show that a slowdown fails the gate")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "mdoc-benchmark"),
                        help="the mdoc-benchmark to measure (default: the release build)")
    options = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("perf-gates: valgrind is not installed: apt-get install valgrind (scripts/install-deps.sh --test)")
    if not os.access(options.binary, os.X_OK):
        sys.exit(f"perf-gates: {options.binary} is missing: swift build -c release --product mdoc-benchmark")

    versions = environment_versions()
    with tempfile.TemporaryDirectory() as folder:
        program = os.path.join(folder, "mdoc-benchmark")
        subprocess.run(["objcopy", "--strip-debug", options.binary, program], check=True)
        saved = os.path.join(folder, "scaling")
        run([program, "scaling", "--elements", str(ELEMENTS), "--sizes", "15000", "--iterations", "1", "--save-inputs", saved])
        inputs = os.path.join(saved, f"elements-{ELEMENTS}")
        measured = {name: measure(program, name, inputs) for name in WORKLOADS}
        if options.update:
            os.makedirs(os.path.dirname(BASELINE), exist_ok=True)
            with open(BASELINE, "w") as file:
                json.dump({"measuredWith": versions, "tolerance": TOLERANCE, "perOperation": measured}, file, indent=2)
                file.write("\n")
            print(f"perf-gates: wrote {os.path.relpath(BASELINE, ROOT)}")
            for name, figures in measured.items():
                print(f"  {name:<14} " + ", ".join(f"{figure} {value:,}" for figure, value in figures.items()))
            return 0

        with open(BASELINE) as file:
            recorded = json.load(file)
        changed = {name: (recorded["measuredWith"].get(name), version)
                   for name, version in versions.items() if recorded["measuredWith"].get(name) != version}
        for name, (then, now) in changed.items():
            print(f"perf-gates: note: the baseline was measured with {then}; this machine has {now}")
        lines, passed = compare(recorded["perOperation"], measured)
        print("perf-gates: per operation, against " + os.path.relpath(BASELINE, ROOT))
        print("\n".join("  " + line for line in lines))

        if options.self_test:
            slowed = {"verify-warm": measure(program, "verify-warm", inputs, dict(os.environ, **{SLOWDOWN[0]: SLOWDOWN[1]}))}
            slowed_lines, slowed_passed = compare(recorded["perOperation"], slowed)
            print(f"perf-gates: self-test, verify-warm with {SLOWDOWN[0]}={SLOWDOWN[1]} (OpenSSL's generic code):")
            print("\n".join("  " + line for line in slowed_lines))
            if slowed_passed:
                print("perf-gates: self-test FAILED: the gate passed a slowed program")
                return 1
            print("perf-gates: self-test passed: the gate fails the slowed program")
    if not passed:
        print("perf-gates: a figure is above its limit; if the change is deliberate (or a version noted above "
              "explains it), run python3 scripts/perf-gates.py --update and commit Benchmarks/perf-gates.json with it")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
