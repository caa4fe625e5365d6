import MdocCBOR
import MdocModel
import MdocPresentation
import MdocSession

/// The one behaviour a ``ConformanceCase`` requires of the mdoc under test, and the judgement of
/// a session against it.
public enum HolderExpectation: Sendable, Hashable, CustomStringConvertible {
    /// A data element, by name space and identifier.
    public struct Element: Sendable, Hashable, CustomStringConvertible {
        /// The name space.
        public var nameSpace: String
        /// The data element identifier.
        public var identifier: String

        /// The element `identifier` of `nameSpace`.
        public init(_ nameSpace: String, _ identifier: String) {
            self.nameSpace = nameSpace
            self.identifier = identifier
        }

        /// `nameSpace/identifier`.
        public var description: String { "\(nameSpace)/\(identifier)" }
    }

    /// A DeviceResponse whose every document passes issuer data authentication and mdoc
    /// authentication (9.1.2, 9.1.3), with a document of `docType` holding every element of
    /// `returned` and none of `withheld` (8.3.2.1.2.2: only what was requested and released).
    case verifiedResponse(docType: String, returned: [Element], withheld: [Element])
    /// A DeviceResponse with status 0 and no document of `docType` (8.3.2.1.2.2,
    /// 8.3.2.1.2.3): the mdoc has none, which is no error of the request.
    case responseWithout(docType: String)
    /// A DeviceResponse with `status` and no document (8.3.2.1.2.3), the session going on.
    case responseStatus(DeviceResponse.Status)
    /// The mdoc ends the session with a SessionData of `status` (9.1.1.4).
    case sessionStatus(SessionData.Status)
    /// The mdoc ends the session with a SessionData of status 10 or 11 and sends no
    /// DeviceResponse at all, not even one of an error status (9.1.1.4, Table 20): an error of
    /// session encryption or of decoding, for a SessionEstablishment from which the mdoc gets no
    /// session key or no request.
    case sessionError
    /// No data element of `docType` disclosed, issuer- or device-signed: a DeviceResponse, of
    /// any status, without such a document or with one returning no element, or the session
    /// ended by the mdoc instead of a response, with status 20 or the transport's termination
    /// (9.1.1.4). A session the mdoc ended with status 10 or 11, or did not answer at all, is
    /// inconclusive: it never came to judge the request.
    case noDisclosure(docType: String)
    /// The mdoc connects and leaves without starting the session: no State 0x01 before the
    /// connection's bound ran out (8.3.3.1.1.4), as an mdoc in central client mode that finds
    /// the reader's Ident wrong does. A session that started fails; one no mdoc came to is
    /// inconclusive.
    case sessionNotStarted
    /// After a DeviceResponse, and the reader's termination of the session by one means alone
    /// (SessionData of status 20, or BLE State 0x02), the mdoc closes the channel (on
    /// termination "closure of the communication channel used for data retrieval", 9.1.1.4;
    /// over BLE it disconnects, or notifies State 0x02, or removes its service) and sends
    /// nothing more, within the reader's idle bound. A transport that cannot send the
    /// termination alone makes it inconclusive.
    case closesChannelOnTermination

    /// The statuses of ``sessionError`` (and of `ReaderExpectation.sessionError`): 10, session
    /// encryption, and 11, CBOR decoding (9.1.1.4, Table 20).
    static let sessionErrorStatuses: Set<SessionData.Status> = [.sessionEncryptionError, .cborDecodingError]

    /// The number of data elements, issuer- and device-signed, that `response` returns of
    /// documents of `docType`.
    static func elementCount(of docType: String, in response: DeviceResponse) -> Int {
        (response.documents ?? []).filter { $0.docType == docType }.reduce(0) { count, document in
            count + (document.issuerSigned.nameSpaces?.values.reduce(0) { $0 + $1.count } ?? 0)
                + document.deviceSigned.nameSpaces.value.nameSpaces.values.reduce(0) { $0 + $1.count }
        }
    }

    /// The expectation in a sentence.
    public var description: String {
        switch self {
        case .verifiedResponse(let docType, let returned, let withheld):
            let held = withheld.isEmpty ? "" : ", without \(withheld.map(\.description).joined(separator: ", "))"
            return "a verified response with \(docType) holding \(returned.map(\.description).joined(separator: ", "))\(held)"
        case .responseWithout(let docType):
            return "a DeviceResponse with status 0 and no \(docType) document"
        case .responseStatus(let status):
            return "a DeviceResponse with status \(status) and no document"
        case .sessionStatus(let status):
            return "the session ended by the mdoc with status \(status)"
        case .sessionError:
            return "the session ended by the mdoc with status 10 or 11, with no response"
        case .noDisclosure(let docType):
            return "no data element of \(docType) disclosed"
        case .sessionNotStarted:
            return "the mdoc connected and left without starting the session"
        case .closesChannelOnTermination:
            return "a response, then the channel closed by the mdoc after the reader's termination, with nothing sent after it"
        }
    }

    /// Whether the session `result` shows the expected behaviour. A session in which nothing
    /// reached the mdoc is inconclusive: the mdoc was never asked.
    public func judge(_ result: ReaderSessionResult) -> ConformanceOutcome {
        if self == .sessionNotStarted, case .link(let error) = result.end, error.code == .sessionNotStarted {
            return .passed
        }
        guard result.messages.contains(where: { $0.direction == .sent }) else {
            return .inconclusive("\(self == .sessionNotStarted ? "no mdoc connected" : "no session with the mdoc"): \(result.end)")
        }
        let observed = SessionObservation(result)
        let failure = ConformanceOutcome.failed("expected \(self), but \(observed)")
        switch self {
        case .sessionNotStarted:
            return .failed("expected \(self), but it started the session and \(observed)")
        case .closesChannelOnTermination:
            guard result.response != nil else { return failure }
            // The response is the mdoc's first message; the termination followed it.
            if let later = result.messages.filter({ $0.direction == .received }).dropFirst().first {
                return .failed("expected \(self), but the mdoc sent a message of \(later.bytes.count) bytes after the reader's termination")
            }
            switch result.end {
            case .session(.terminatedByReader):
                return .passed
            case .link(let error) where error.code == .timeout:
                return .failed("expected \(self), but the mdoc kept the channel open: \(error)")
            case .link(let error) where error.code == .unsupportedTransport:
                return .inconclusive(error.reason)
            default:
                return failure
            }
        case .sessionStatus(let status):
            return observed.endStatus == status ? .passed : failure
        case .sessionError:
            return result.response == nil && observed.endStatus.map(Self.sessionErrorStatuses.contains) == true ? .passed : failure
        case .noDisclosure(let docType):
            if let response = result.response {
                let disclosed = Self.elementCount(of: docType, in: response)
                return disclosed == 0 ? .passed : .failed("expected \(self), but \(disclosed) element(s) of it were returned (\(observed))")
            }
            switch observed.endStatus {
            case .sessionTermination?:
                return .passed
            case let status?:
                return .inconclusive("the mdoc ended the session with status \(status) before it came to the request's reader authentication")
            case nil:
                if case .session(.failed(let error)) = result.end, error.code == .transportEndedEarly { return .passed }
                return .inconclusive("no answer of the mdoc to judge: \(observed)")
            }
        case .responseStatus(let status):
            guard let response = result.response, response.status == status, response.documents?.isEmpty ?? true else { return failure }
            return .passed
        case .responseWithout(let docType):
            guard let response = result.response, response.status == .ok,
                  !(response.documents ?? []).contains(where: { $0.docType == docType }) else { return failure }
            return .passed
        case .verifiedResponse(let docType, let returned, let withheld):
            guard let report = result.report, report.verifiedDocuments != nil,
                  let document = report.documents.first(where: { $0.docType == docType }) else { return failure }
            let elements = Set(document.elements.filter(\.verified).map { Element($0.nameSpace, $0.identifier) })
            let all = Set(document.elements.map { Element($0.nameSpace, $0.identifier) })
            if let missing = returned.first(where: { !elements.contains($0) }) {
                return .failed("expected \(self), but \(missing) was not returned verified (\(observed))")
            }
            if let extra = withheld.first(where: { all.contains($0) }) {
                return .failed("expected \(self), but \(extra) was returned")
            }
            return .passed
        }
    }
}
