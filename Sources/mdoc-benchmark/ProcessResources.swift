#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What this process holds of the machine, read from Linux's /proc (proc(5)): resident memory
/// now and at its peak, and open file descriptors. The soak run samples it to show that
/// repeated work does not grow it.
struct ProcessResources: CustomStringConvertible {
    /// VmRSS: resident set size, in KiB.
    var residentKiB: Int
    /// VmHWM: the peak resident set size so far, in KiB.
    var peakResidentKiB: Int
    /// Entries of /proc/self/fd.
    var openFileDescriptors: Int

    /// The current figures; zeros where /proc cannot be read.
    static func current() -> ProcessResources {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        func kibibytes(_ field: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return 0 }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        return ProcessResources(residentKiB: kibibytes("VmRSS"), peakResidentKiB: kibibytes("VmHWM"), openFileDescriptors: descriptors)
    }

    var description: String {
        "RSS \(residentKiB) KiB (peak \(peakResidentKiB) KiB), \(openFileDescriptors) open descriptors"
    }
}
