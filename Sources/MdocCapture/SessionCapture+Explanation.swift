import MdocBLE
import MdocCBOR
import MdocInspection
import MdocModel
import MdocNFC
import MdocPresentation
import MdocSession
import MdocText

/// `mdoc inspect DIR`: a captured session walked message by message (docs/session-capture.md).
extension SessionCapture {
    /// The capture explained: how and when the session ran, how it ended, the engagement, the
    /// transcript, then each message as it went over the link and what it decrypts to, each
    /// explained as `mdoc inspect --explain` explains a file (`MessageExplainer`,
    /// MdocInspection), or with `diagnostic` in CBOR diagnostic notation.
    public func explanation(diagnostic: Bool) -> Explanation {
        func item(_ label: TerminalText, _ bytes: [UInt8]) -> Explanation {
            let decoded: CBOR
            do {
                decoded = try CBOR.decode(bytes)
            } catch {
                return Explanation(label, "not well-formed CBOR: \(error)", children: [Explanation.bytes("Bytes", bytes)])
            }
            if diagnostic { return Explanation.diagnostic(label, decoded) }
            let explained = MessageExplainer.explain(decoded)
            return Explanation(label, children: [explained])
        }
        var children: [Explanation] = [
            Explanation("Program", "\(program)"),
            Explanation("Time", "\(TDate(started).text) to \(TDate(ended).text)"),
            Explanation(
                "Transport", "\(transport)\(mode.map { ", \($0.rawValue) mode" } ?? "")\(mtu.map { ", ATT MTU \($0)" } ?? "")"),
            Explanation("Outcome", "\(outcome) (exit status \(exitStatus))"),
        ]
        if let verificationTime {
            children.append(Explanation("Verification time", "\(TDate(verificationTime).text)"))
        }
        children.append(Explanation("Engagement URI", "\(engagementURI)"))
        children.append(item("DeviceEngagement (\(Self.engagementFileName))", deviceEngagement))
        if let sessionTranscriptBytes {
            children.append(item("SessionTranscriptBytes (\(Self.sessionTranscriptFileName))", sessionTranscriptBytes))
        } else {
            children.append(Explanation("SessionTranscriptBytes", "none: no SessionEstablishment was taken (9.1.5.1)"))
        }
        if let apduTrace {
            children.append(MessageExplainer.apduTrace("APDUs (\(Self.apduTraceFileName))", apduTrace))
        }
        for (index, opened) in openedMessages().enumerated() {
            let names = Self.fileNames(of: opened, index: index)
            let sender = opened.fromReader ? "mdoc reader" : "mdoc"
            let chunks = sentChunks(opened.message).map { ", \($0) chunk\($0 == 1 ? "" : "s")" } ?? ""
            var lines = [item("\(opened.structure) (\(names.message))", opened.message.bytes)]
            if let plaintext = opened.plaintext {
                lines.append(item("Decrypted: \(opened.plaintextStructure) (\(names.plaintext))", plaintext))
            }
            if let problem = opened.problem {
                lines.append(Explanation("Problem", "\(problem)"))
            }
            children.append(Explanation(
                "Message \(index + 1)",
                "\(opened.message.direction.rawValue), from the \(sender), \(TDate(opened.message.time).text), \(opened.message.bytes.count) bytes\(chunks)",
                children: lines))
        }
        return Explanation("Session capture (\(role == .reader ? "mdoc reader" : "mdoc") side)", children: children)
    }
}
