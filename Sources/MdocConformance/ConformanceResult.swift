#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one ``ConformanceCase`` came to in a run: its outcome, how long its session took, and
/// where its capture is.
public struct ConformanceResult: Sendable {
    /// The case that ran: a ``ConformanceCase`` or a ``ReaderConformanceCase``.
    public var conformanceCase: any ConformanceTest
    /// Its outcome.
    public var outcome: ConformanceOutcome
    /// From the engagement's arrival to the session's end.
    public var duration: Duration
    /// The capture directory of the case's session (docs/session-capture.md); `nil` when no
    /// captures were asked for, or no session was made.
    public var capturePath: String?

    /// A result.
    public init(conformanceCase: any ConformanceTest, outcome: ConformanceOutcome, duration: Duration, capturePath: String?) {
        self.conformanceCase = conformanceCase
        self.outcome = outcome
        self.duration = duration
        self.capturePath = capturePath
    }

    /// The duration in seconds to the millisecond, as reports write it.
    public var seconds: Double {
        Self.seconds(duration)
    }

    /// `duration` in seconds to the millisecond.
    static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole * 1000 + attoseconds / 1_000_000_000_000_000) / 1000
    }
}
