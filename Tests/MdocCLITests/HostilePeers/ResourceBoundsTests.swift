import Foundation
import MdocBLE
import MdocTestPeers
import Testing

/// A 10 MB hostile message is rejected with bounded memory: the receiving
/// program stops at ``MessageReassembler/maximumMessageSize`` and its peak resident memory
/// (VmHWM, proc(5)) grows by a bounded amount, whoever sends it. The figures are printed, and
/// `scripts/soak.sh` repeats them.
@Suite struct ResourceBoundsTests {
    /// The hostile message: 10 MiB, well past the 4 MiB reassembly limit.
    static let hostileMessageSize = 10 * 1024 * 1024
    /// The most a program's peak resident memory may grow while it rejects the message: the
    /// partial message it holds (at most the limit, with the spare capacity of a growing
    /// array) and the chunks in flight, with room for the allocator.
    static let allowedGrowthKiB = 3 * MessageReassembler.maximumMessageSize / 1024

    /// A field of /proc/PID/status in KiB (VmRSS, VmHWM), or nil once the process is gone.
    static func kibibytes(_ field: String, of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") })
        else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }

    @Test func tenMegabyteRequestIsRejectedByTheHolderWithBoundedMemory() async throws {
        let link = SimHostileLink()
        let holder = try HostileProgramTests.startHolder(link, keepRunning: true)
        let reader = try HostileReader(uri: try await HostileProgramTests.engagement(holder), link: link)
        try await reader.run(until: .started)
        let before = try #require(Self.kibibytes("VmHWM", of: holder.processIdentifier))
        try await reader.sendFlood(bytes: Self.hostileMessageSize)
        // The holder rejected it once it shows its next engagement.
        _ = try await HostileProgramTests.engagement(holder, 2)
        let peak = try #require(Self.kibibytes("VmHWM", of: holder.processIdentifier))
        reader.close()
        holder.interrupt()
        let result = await holder.wait(timeout: LiveSession.waitTimeout)

        print("resource bounds: mdoc-holder given a \(Self.hostileMessageSize)-byte message: peak RSS \(peak) KiB (\(before) KiB before, +\(peak - before) KiB)")
        #expect(result.standardError.contains("messageTooLarge"), "\(result.standardError)")
        #expect(peak - before < Self.allowedGrowthKiB, "peak RSS grew by \(peak - before) KiB")
    }

    @Test func tenMegabyteResponseIsRejectedByTheReaderWithBoundedMemory() async throws {
        let link = SimHostileLink()
        let holder = try HostileHolder(link: link)
        let reader = try HostileProgramTests.startReader(holder.uri, over: link)
        try await holder.run(until: .requestReceived)
        let before = try #require(Self.kibibytes("VmHWM", of: reader.processIdentifier))
        // The peak is read while the reader runs: it is gone once it rejected the message.
        let pid = reader.processIdentifier
        let sampler = Task {
            var peak = before
            while let now = Self.kibibytes("VmHWM", of: pid) {
                peak = max(peak, now)
                try? await Task.sleep(for: .milliseconds(5))
            }
            return peak
        }
        try await holder.sendFlood(bytes: Self.hostileMessageSize)
        let result = await reader.wait(timeout: LiveSession.waitTimeout)
        holder.close()
        let peak = await sampler.value

        print("resource bounds: mdoc-reader given a \(Self.hostileMessageSize)-byte message: peak RSS \(peak) KiB (\(before) KiB before, +\(peak - before) KiB)")
        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardError.contains("messageTooLarge"), "\(result.standardError)")
        HostileProgramTests.expectNothingVerified(result)
        #expect(peak - before < Self.allowedGrowthKiB, "peak RSS grew by \(peak - before) KiB")
    }
}
