#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
@testable import MdocBLE
@testable import MdocSim
import MdocTestSupport
import Testing

/// Counts the descriptors of the whole test process, so it runs in a process of its own
/// (scripts/test-runs.sh): beside the other suites, their sockets, pipes and Bumble processes come
/// and go while it counts, and on a loaded two-core CI machine that noise outgrew any slack.
@Suite("Descriptor hygiene of the sim link, alone in its test process (docs/architecture.md section 4)", .timeLimit(.minutes(1)))
struct DescriptorHygieneTests {
    /// A link holds three descriptors (the listening, connecting and accepted sockets) and a
    /// scan one more, so a leak of even one per link shows within a few rounds; the slack covers
    /// what the runtime opens lazily after the warm-up.
    static let rounds = 60
    static let slack = 3

    @Test("no descriptor leaks over many links, failed scans and stopped advertisers")
    func descriptorHygiene() async throws {
        try await Self.round()
        let settled = try await SimTestSupport.drainedDescriptorCount()
        for _ in 0..<Self.rounds { try await Self.round() }
        // The event loops close the sockets as the channels close, just after the links closed.
        #expect(try await SimTestSupport.drainedDescriptorCount() <= settled + Self.slack)
    }

    /// One link opened, used and closed from both ends, one scan that finds nobody and one
    /// advertiser stopped unused.
    private static func round() async throws {
        let (accepted, connected) = try await SimTestSupport.connectedPair()
        let connectedInbox = try await ATTBearerInbox(connected)
        try await connected.send([1])
        _ = try await ATTBearerInbox(accepted).receive()
        accepted.close()
        _ = try await connectedInbox.receive()
        connected.close()
        _ = try? await SimLink.connect(serviceUUID: UUID(), timeout: .zero)
        try SimLink.advertise(serviceUUID: UUID()).stop()
    }
}
