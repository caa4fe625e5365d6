import MdocCBOR
import MdocPresentation
import MdocSession
import MdocText

/// The text a holder reads before consenting (ISO/IEC 18013-5 8.3.2.1.2.1 and 9.1.4): for each
/// requested document, who is asking as reader authentication established it, and every
/// requested element by readable name, marked when the reader will retain it or the holder does
/// not have it.
///
/// Everything in a request is the reader's choice, so every docType, name space, identifier and
/// certificate subject is escaped (``TerminalText``): a reader cannot redraw the prompt. A
/// docType, name space or identifier that is not plain printable ASCII (18013-5 names are
/// letters, digits, dots and underscores) is also marked with ``suspiciousMarker``.
package enum RequestPresentationText {
    /// The marker after an element whose IntentToRetain is true.
    package static let retainedMarker: TerminalText = "(will be retained)"
    /// The marker after an element the holder's credential does not hold.
    package static let unavailableMarker: TerminalText = "(not in your credential)"
    /// The marker after a docType, name space or identifier with a character outside printable
    /// ASCII (U+0021 to U+007E; a space counts as outside), or longer than
    /// ``UntrustedText/maximumLength``: what the holder sees is not the plain name a real
    /// reader would ask for.
    package static let suspiciousMarker: TerminalText = "[SUSPICIOUS: not a plain ASCII name]"

    /// The request as lines of text, each ending in `\n`.
    package static func render(_ request: PresentationRequest) -> TerminalText {
        guard !request.documents.isEmpty else { return "The reader requests no documents.\n" }
        var out: TerminalText = "The reader requests:\n"
        for document in request.documents {
            out += "\n  \(name(document.docType))\(document.isAvailable ? "" : " (you do not hold this document)")\n"
            out += "    Reader: \(readerText(document.readerAuthentication))\n"
            var currentNameSpace: String? = nil
            for element in document.elements {
                if element.nameSpace != currentNameSpace {
                    out += "    In \(name(element.nameSpace)):\n"
                    currentNameSpace = element.nameSpace
                }
                out += "      \(elementText(element))\n"
            }
        }
        return out
    }

    /// One element: readable name, identifier, and its markers.
    package static func elementText(_ element: PresentationRequest.Element) -> TerminalText {
        var text: TerminalText = element.displayName == element.identifier
            ? name(element.identifier) : "\(element.displayName) (\(name(element.identifier)))"
        if element.intentToRetain { text += " \(retainedMarker)" }
        if !element.isAvailable { text += " \(unavailableMarker)" }
        return text
    }

    /// The reader's identity: trusted with its certificate subject and trust anchor, untrusted
    /// with the reason (and the subject it claims), or anonymous.
    package static func readerText(_ identity: ReaderIdentity) -> TerminalText {
        switch identity {
        case .anonymous:
            return "anonymous (the request is not signed)"
        case .trusted(let subject, let anchor):
            return "trusted: \(subject) (trust anchor \(anchor))"
        case .untrusted(let subject, let reason):
            let claim: TerminalText = subject.map { ", claiming to be \($0)" } ?? ""
            return "NOT TRUSTED\(claim): \(reason)"
        }
    }

    /// A docType, name space or identifier of the request, escaped, with ``suspiciousMarker``
    /// when it is not a plain name.
    package static func name(_ text: String) -> TerminalText {
        isPlainName(text) ? "\(text)" : "\(text) \(suspiciousMarker)"
    }

    /// `true` when `text` is not empty, at most ``UntrustedText/maximumLength`` scalars long
    /// and made only of printable ASCII other than the space.
    package static func isPlainName(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.count <= UntrustedText.maximumLength
            && text.unicodeScalars.allSatisfy { ("!"..."~").contains($0) }
    }
}
