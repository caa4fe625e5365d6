// mdoc-benchmark: how long a reader takes to verify a DeviceResponse, and how much memory, beside
// the OpenSSL work that verification cannot avoid, measured in the same run.
//
//     mdoc-benchmark [verify] [RESPONSE --trust ... --transcript ... --reader-key ... --at ...]
//                    [--iterations N] [--json]           (VerificationBenchmark.swift)
//     mdoc-benchmark verify --soak N                     (below)
//     mdoc-benchmark scaling [--elements N...] [--sizes BYTES...]   (ScalingBenchmark.swift)
//     mdoc-benchmark link [--sessions N] [--json]        (LinkBenchmark.swift)
//     mdoc-benchmark status [--iterations N] [--json]    (StatusBenchmark.swift)
//     mdoc-benchmark online [--iterations N] [--json]    (OnlineBenchmark.swift)
// (options: BenchmarkCommand.swift). Build in release mode: swift build -c release.
//
// Each operation is warmed up, then timed call by call (Stopwatch.swift); medians and 90th
// percentiles are in microseconds. The OpenSSL floor is VerificationFloor.swift; peak memory is
// measured in a child process, PeakMemory.swift.

import ArgumentParser
import MdocSession

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes `message` to standard error and exits with status 1.
func fail(_ message: String) -> Never {
    var bytes = Array("mdoc-benchmark: \(message)\n".utf8)
    _ = write(2, &bytes, bytes.count)
    exit(1)
}

/// Runs `body`, or ends the program naming `what` could not be prepared.
func prepare<Value>(_ what: String, _ body: () throws -> Value) -> Value {
    do {
        return try body()
    } catch {
        fail("cannot prepare \(what): \(error)")
    }
}

/// A folder for the files of one run (generated inputs, the memory probe's output), removed at
/// the end.
func withScratchFolder(_ body: (String) throws -> Void) throws {
    var template = Array("/tmp/mdoc-benchmark.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw BenchmarkError("cannot make a folder in /tmp") }
    let folder = String(cString: made)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try body(folder)
}

/// Verifies `input` `count` times, each with a new verifier or, when `warm`, all with one,
/// printing resident memory and open descriptors at the start and after each tenth
/// (scripts/soak.sh).
func soak(_ input: VerificationInput, count: Int, warm: Bool) {
    let shared = input.makeVerifier()
    let start = ProcessResources.current()
    print("offline verifications: 0 of \(count): \(start)")
    let step = max(1, count / 10)
    for done in 1...count {
        let verifier = warm ? shared : input.makeVerifier()
        _ = prepare("verification \(done)") { try input.verify(with: verifier) }
        if done % step == 0 || done == count {
            print("offline verifications: \(done) of \(count): \(ProcessResources.current())")
        }
    }
    let end = ProcessResources.current()
    print("offline verifications: \(count) verified; from start to end RSS \(end.residentKiB - start.residentKiB) KiB, descriptors \(end.openFileDescriptors - start.openFileDescriptors)")
}

let command: any ParsableCommand
do {
    command = try MdocBenchmark.parseAsRoot()
} catch {
    MdocBenchmark.exit(withError: error)
}
switch command {
case is MdocBenchmark.Link, is MdocBenchmark.NFC, is MdocBenchmark.Verification, is MdocBenchmark.Scaling, is MdocBenchmark.Status, is MdocBenchmark.Online,
    is MdocBenchmark.Keys, is MdocBenchmark.Presentations, is MdocBenchmark.Sessions, is MdocBenchmark.MemoryProbe:
    break
default:
    // `--help`, `help SUBCOMMAND`: the parser's own commands, which print and end.
    do {
        var builtIn = command
        try builtIn.run()
        MdocBenchmark.exit()
    } catch {
        MdocBenchmark.exit(withError: error)
    }
}
do {
    switch command {
    case let link as MdocBenchmark.Link:
        await LinkBenchmark.run(sessions: link.sessions, json: link.json)
    case let nfc as MdocBenchmark.NFC:
        await NFCBenchmark.run(sessions: nfc.sessions, json: nfc.json)
    case let verification as MdocBenchmark.Verification:
        let input = try verification.input.load()
        if let count = verification.soak {
            soak(input, count: count, warm: verification.warm)
        } else {
            try withScratchFolder { scratch in
                try VerificationBenchmark.run(input, iterations: verification.iterations, json: verification.json, scratch: scratch)
            }
        }
    case let scaling as MdocBenchmark.Scaling:
        try withScratchFolder { scratch in
            try ScalingBenchmark.run(
                elementCounts: scaling.elements, responseSizes: scaling.sizes, iterations: scaling.iterations,
                json: scaling.json, scratch: scratch, saveInputs: scaling.saveInputs)
        }
    case let status as MdocBenchmark.Status where status.soak != nil:
        StatusBenchmark.soak(count: status.soak ?? 0)
    case let status as MdocBenchmark.Status:
        try withScratchFolder { scratch in
            StatusBenchmark.run(iterations: status.iterations, json: status.json, scratch: scratch)
        }
    case let online as MdocBenchmark.Online where online.soak != nil:
        OnlineBenchmark.soak(count: online.soak ?? 0)
    case let online as MdocBenchmark.Online:
        try withScratchFolder { scratch in
            try OnlineBenchmark.run(iterations: online.iterations, json: online.json, scratch: scratch)
        }
    case let presentations as MdocBenchmark.Presentations:
        guard await PresentationSoak.run(count: presentations.soak) else { exit(1) }
    case let sessions as MdocBenchmark.Sessions:
        SessionSoak.run(count: sessions.soak)
    case let keys as MdocBenchmark.Keys:
        KeyBenchmark.run(keys: try KeyBenchmark.keys(named: keys), iterations: keys.iterations, json: keys.json)
    case let probe as MdocBenchmark.MemoryProbe:
        try PeakMemory.probe(try probe.input.load())
    default:
        break
    }
} catch let error as BenchmarkError {
    fail(error.description)
} catch {
    fail("\(error)")
}
exit(0)
