import MdocCBOR
import MdocModel
import MdocPresentation
import MdocSession

/// The one behaviour a ``ReaderConformanceCase`` requires of the mdoc reader under test, and the
/// judgement of a session against it. The holder sees only what the reader sends; what the
/// reader shows its user, a person confirms.
public enum ReaderExpectation: Sendable, Hashable, CustomStringConvertible {
    /// After the response, the reader ends the session with a SessionData of `status` (9.1.1.4);
    /// for status 20, session termination, the transport's own termination (BLE State 0x02,
    /// 8.3.3.1.1.5) with no status does too, as 9.1.1.4 allows either.
    case sessionStatus(SessionData.Status)
    /// After the response, the reader ends the session with status 10 or 11 (9.1.1.4, Table
    /// 20): an error of session encryption or of decoding, for a response whose SessionData
    /// does not follow its CDDL. Either status is taken: Table 20 names both errors, and
    /// neither fits only a SessionData of the wrong structure.
    case sessionError
    /// The reader takes the engagement as shown: its request decrypts, which needs the
    /// SessionTranscript to hold DeviceEngagementBytes exactly as shown (9.1.5.1), and after the
    /// response it ends the session with status 20 (9.1.1.4). Unlike the other expectations, a
    /// reader that came but whose request the holder could not read fails: the engagement is
    /// what the case is about.
    case engagementAccepted
    /// After the response, the holder ends the session with a SessionData of status 20 alone
    /// and keeps its side of the link; the reader closes the channel, as 9.1.1.4 requires of the
    /// side that receives a termination, within the holder's idle bound, and sends nothing
    /// after the holder's status but, at most, a termination of its own that crossed it.
    case closesChannelOnTermination
    /// The reader shows what `question` asks about, which the person watching it confirms; the
    /// response must have been sent for the question to mean anything.
    case confirmedByPerson(question: String)

    /// The expectation in a sentence.
    public var description: String {
        switch self {
        case .sessionStatus(.sessionTermination):
            return "the session ended by the reader with status \(SessionData.Status.sessionTermination) or BLE State 0x02"
        case .sessionStatus(let status):
            return "the session ended by the reader with status \(status)"
        case .sessionError:
            return "the session ended by the reader with status \(SessionData.Status.sessionEncryptionError) or \(SessionData.Status.cborDecodingError)"
        case .engagementAccepted:
            return "the engagement taken, the request readable and the session ended by the reader with status \(SessionData.Status.sessionTermination) or BLE State 0x02"
        case .closesChannelOnTermination:
            return "the channel closed by the reader after the mdoc's status \(SessionData.Status.sessionTermination), with no message after it but a termination"
        case .confirmedByPerson(let question):
            return "the tester's yes to: \(question)"
        }
    }

    /// Whether the session `result` shows the expected behaviour; for ``confirmedByPerson(question:)``,
    /// with `answer` the person's answer (`nil`: none came). A reader whose request broke
    /// 18013-5 (its chunks, 8.3.3.1.1.6, or a message that is not a SessionEstablishment the
    /// holder can read, 9.1.1.4) fails every case. Otherwise a session in which the holder sent
    /// no response is inconclusive: the reader was never shown what the case is about; except
    /// for ``engagementAccepted``, where only a reader that sent nothing is (one that refused
    /// the engagement cannot be told from one nobody started).
    public func judge(_ result: HolderSessionResult, answer: Bool?) -> ConformanceOutcome {
        let observed = ReaderObservation(result)
        if observed.readerBrokeRequest {
            return .failed("expected \(self), but the reader's request broke ISO/IEC 18013-5: \(observed)")
        }
        switch self {
        case .engagementAccepted:
            guard observed.readerSentMessage else {
                return .inconclusive("the reader sent nothing: \(observed)")
            }
            return observed.responseSent && observed.endedSession ? .passed : .failed("expected \(self), but \(observed)")
        case .sessionStatus(let status):
            guard observed.responseSent else {
                return .inconclusive("no response reached the reader: \(observed)")
            }
            let ended = status == .sessionTermination ? observed.endedSession : observed.endStatus == status
            return ended ? .passed : .failed("expected \(self), but \(observed)")
        case .sessionError:
            guard observed.responseSent else {
                return .inconclusive("no response reached the reader: \(observed)")
            }
            return observed.endStatus.map(HolderExpectation.sessionErrorStatuses.contains) == true
                ? .passed : .failed("expected \(self), but \(observed)")
        case .closesChannelOnTermination:
            guard observed.responseSent, let termination = observed.holderTermination else {
                return .inconclusive("no response and termination reached the reader: \(observed)")
            }
            // A status 20 of the reader's own may have crossed the holder's.
            if let later = result.messages[(termination + 1)...].first(where: {
                $0.direction == .received && (try? SessionData(encoded: $0.bytes)) != SessionData(status: .sessionTermination)
            }) {
                return .failed("expected \(self), but the reader sent a message of \(later.bytes.count) bytes after the mdoc's termination")
            }
            switch result.end {
            case .session(.terminatedByHolder):
                return .passed
            case .link(let error) where error.code == .timeout:
                return .failed("expected \(self), but the reader kept the channel open: \(error)")
            default:
                return .failed("expected \(self), but \(observed)")
            }
        case .confirmedByPerson:
            guard observed.responseSent else {
                return .inconclusive("no response reached the reader: \(observed)")
            }
            switch answer {
            case true?: return .passed
            case false?: return .failed("expected \(self), but the tester answered no (\(observed))")
            case nil: return .inconclusive("nobody answered whether the reader showed it (\(observed))")
            }
        }
    }

    /// The question to put to the person, when this expectation needs one.
    public var question: String? {
        if case .confirmedByPerson(let question) = self { return question }
        return nil
    }
}
