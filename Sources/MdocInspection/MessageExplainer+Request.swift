import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocText

extension MessageExplainer {
    /// DeviceRequest (ISO/IEC 18013-5 8.3.2.1.2.1): the version and every DocRequest.
    static func deviceRequest(_ request: DeviceRequest) -> [Explanation] {
        var lines = [Explanation("Version", "\(request.version)")]
        for (index, docRequest) in request.docRequests.enumerated() {
            lines.append(Explanation(
                "DocRequest \(index)", "\(docRequest.itemsRequest.value.docType)", children: self.docRequest(docRequest)))
        }
        return lines + otherEntries(request.additionalEntries)
    }

    /// One DocRequest: the ItemsRequest and the reader authentication over it.
    static func docRequest(_ docRequest: DocRequest) -> [Explanation] {
        var lines = [Explanation(
            "ItemsRequest", "ItemsRequestBytes, \(docRequest.itemsRequest.bytes.count) bytes",
            children: itemsRequest(docRequest.itemsRequest.value))]
        if let readerAuth = docRequest.readerAuth {
            lines.append(Explanation(
                "ReaderAuth", "COSE_Sign1 over ReaderAuthenticationBytes (9.1.4)",
                children: coseSign1(readerAuth, role: .readerAuthentication)
                    + [Explanation("Note", "the signature covers this session's SessionTranscript; check it with `mdoc-reader verify-request`")]))
        } else {
            lines.append(Explanation("ReaderAuth", "absent: the reader does not authenticate (an anonymous request)"))
        }
        return lines + otherEntries(docRequest.additionalEntries)
    }

    /// ItemsRequest (ISO/IEC 18013-5 8.3.2.1.2.1): the doc type and each requested element with
    /// its readable name and whether the reader intends to retain it.
    static func itemsRequest(_ request: ItemsRequest) -> [Explanation] {
        var lines = [Explanation("DocType", "\(request.docType)")]
        for (nameSpace, elements) in request.nameSpaces {
            lines.append(Explanation("Name space \(nameSpace)", "\(elements.count) element\(elements.count == 1 ? "" : "s")", children: elements.map { identifier, intentToRetain in
                let name = DataElementCatalogue.name(of: identifier, in: nameSpace)
                let text: TerminalText = intentToRetain ? "intent to retain: yes" : "intent to retain: no"
                return Explanation("\(identifier)" + (name.map { " (\($0))" } ?? ""), text)
            }))
        }
        if let info = request.requestInfo {
            lines.append(Explanation("Request info", children: info.entries.map { entry in
                diagnostic("\(entry.key.textValue ?? entry.key.diagnosticNotation())", entry.value)
            }))
        }
        return lines + otherEntries(request.additionalEntries)
    }
}
