import MdocSession

/// The text a holder reads before consenting (ISO/IEC 18013-5 8.3.2.1.2.1 and 9.1.4): for each
/// requested document, who is asking as reader authentication established it, and every
/// requested element by readable name, marked when the reader will retain it or the holder does
/// not have it.
public enum RequestPresentationText {
    /// The marker after an element whose IntentToRetain is true.
    public static let retainedMarker = "(will be retained)"
    /// The marker after an element the holder's credential does not hold.
    public static let unavailableMarker = "(not in your credential)"

    /// The request as lines of text, each ending in `\n`.
    public static func render(_ request: PresentationRequest) -> String {
        guard !request.documents.isEmpty else { return "The reader requests no documents.\n" }
        var out = "The reader requests:\n"
        for document in request.documents {
            out += "\n  \(document.docType)\(document.isAvailable ? "" : " (you do not hold this document)")\n"
            out += "    Reader: \(readerText(document.readerAuthentication))\n"
            var currentNameSpace: String? = nil
            for element in document.elements {
                if element.nameSpace != currentNameSpace {
                    out += "    In \(element.nameSpace):\n"
                    currentNameSpace = element.nameSpace
                }
                out += "      \(elementText(element))\n"
            }
        }
        return out
    }

    /// One element: readable name, identifier, and its markers.
    public static func elementText(_ element: PresentationRequest.Element) -> String {
        var text = element.displayName == element.identifier
            ? element.identifier : "\(element.displayName) (\(element.identifier))"
        if element.intentToRetain { text += " \(retainedMarker)" }
        if !element.isAvailable { text += " \(unavailableMarker)" }
        return text
    }

    /// The reader's identity: trusted with its certificate subject and trust anchor, untrusted
    /// with the reason (and the subject it claims), or anonymous.
    public static func readerText(_ identity: ReaderIdentity) -> String {
        switch identity {
        case .anonymous:
            return "anonymous (the request is not signed)"
        case .trusted(let subject, let anchor):
            return "trusted: \(subject) (trust anchor \(anchor))"
        case .untrusted(let subject, let reason):
            let claim = subject.map { ", claiming to be \($0)" } ?? ""
            return "NOT TRUSTED\(claim): \(reason)"
        }
    }
}
