import MdocPosix
import MdocSession

#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The memory one verification needs beyond what the process holds before it, measured in a new
/// process of this program (`mdoc-benchmark memory-probe`) so that no earlier run's allocations
/// hide or inflate it.
///
/// The child loads the input from its files, verifies it once to page in the code and tables
/// verification uses, returns the freed memory to the system (`malloc_trim`), resets the peak
/// (writing 5 to /proc/self/clear_refs, proc(5)) and takes its resident set size as the base. It
/// then verifies again, decoding included, and reads the peak (VmHWM) while it still holds the
/// report: the difference is the peak memory above the base.
struct PeakMemory {
    /// The resident set size before the verification, in KiB.
    let baseKiB: Int
    /// The peak resident set size during it, less the base, in KiB.
    let aboveBaseKiB: Int

    /// The peak above the base per byte of the input.
    func perInputByte(_ inputByteCount: Int) -> Double {
        Double(aboveBaseKiB * 1024) / Double(max(inputByteCount, 1))
    }

    /// Measures `input` in a child process; `scratch` is a folder for its output.
    static func measure(_ input: VerificationInput, scratch: String) throws -> PeakMemory {
        let executable = try Self.executablePath()
        let output = scratch + "/memory-probe.out"
        let errors = scratch + "/memory-probe.err"
        let child = try ChildProcess(
            executable: executable, ["memory-probe"] + input.files.arguments(at: input.time),
            environment: ProcessInfo.processInfo.environment, directory: FileManager.default.currentDirectoryPath,
            standardOutput: .file(output), standardError: .file(errors))
        guard let termination = child.wait(timeout: 600) else {
            child.signal(SIGKILL)
            throw BenchmarkError("the memory probe did not finish within 10 minutes")
        }
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        let fields = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard termination == .exited(0), fields.count == 2 else {
            let reason = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            throw BenchmarkError("the memory probe ended \(termination): \(reason)")
        }
        return PeakMemory(baseKiB: fields[0], aboveBaseKiB: fields[1])
    }

    /// The child's side: verifies `input` as described on the type and prints the base and the
    /// peak above it, in KiB. Between reading the base and the peak nothing runs but the
    /// verification: both are read from /proc/self/status into a buffer on the stack, so the
    /// reading allocates nothing that would count as the verification's.
    static func probe(_ input: VerificationInput) throws {
        _ = try input.verify(with: input.makeVerifier())
        returnFreedMemory()
        guard let clear = fopen("/proc/self/clear_refs", "w") else {
            throw BenchmarkError("cannot reset the peak resident set size: /proc/self/clear_refs")
        }
        fputs("5", clear)
        fclose(clear)
        let base = try residentKiB()
        let report = try input.verify(with: input.makeVerifier())
        let peak = try residentKiB()
        withExtendedLifetime(report) {
            print("\(base.resident) \(max(0, peak.peak - base.resident))")
        }
    }

    /// VmRSS and VmHWM of /proc/self/status (proc(5)), in KiB, read without allocating.
    private static func residentKiB() throws -> (resident: Int, peak: Int) {
        let figures = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 8192) { buffer -> (resident: Int, peak: Int)? in
            let descriptor = open("/proc/self/status", O_RDONLY)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var length = 0
            while length < buffer.count {
                let count = read(descriptor, buffer.baseAddress! + length, buffer.count - length)
                if count <= 0 { break }
                length += count
            }
            let text = UnsafeBufferPointer(rebasing: buffer[..<length])
            guard let resident = field("VmRSS:", in: text), let peak = field("VmHWM:", in: text) else { return nil }
            return (resident, peak)
        }
        guard let figures else { throw BenchmarkError("cannot read VmRSS and VmHWM from /proc/self/status") }
        return figures
    }

    /// The number after `name` on the line of `text` that starts with it.
    private static func field(_ name: StaticString, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        let key = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        var lineStart = 0
        while lineStart < text.count {
            var lineEnd = lineStart
            while lineEnd < text.count, text[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            if lineEnd - lineStart > key.count, text[lineStart..<(lineStart + key.count)].elementsEqual(key) {
                var value = 0
                var digits = 0
                for byte in text[(lineStart + key.count)..<lineEnd] where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            lineStart = lineEnd + 1
        }
        return nil
    }

    /// glibc's `malloc_trim(0)`: gives the pages of freed memory back to the system, so that the
    /// next verification's allocations count in the resident set again. Looked up at run time
    /// because Swift's Glibc module does not include malloc.h.
    private static func returnFreedMemory() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        _ = trim(0)
    }

    private static func executablePath() throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { throw BenchmarkError("cannot find this program (/proc/self/exe)") }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
