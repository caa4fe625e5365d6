import MdocCrypto

extension VerificationCheck {
    /// What a check was made on: a certificate, a returned element, a signed structure of the
    /// document, ... as a typed value, so that a program asks which certificate failed
    /// (``certificate``) or which element (``element``) instead of reading text.
    ///
    /// A subject reads as the text reports print for it (the `subject` of the JSON report,
    /// docs/json-report.md): a certificate as its subject name, an element as
    /// `nameSpace/identifier`, a structure as its name in ISO/IEC 18013-5.
    public struct Subject: Sendable, Hashable, CustomStringConvertible {
        private enum Storage: Sendable, Hashable {
            case responseStatus
            case signedStructure(String)
            case x5chain(of: String, position: Int?)
            indirect case certificate(Certificate)
            case mobileSecurityObject
            case structure(String)
            case docType(String)
            case element(nameSpace: String, identifier: String)
            case named(String)
        }

        private let storage: Storage

        private init(_ storage: Storage) {
            self.storage = storage
        }

        // MARK: The response and its signed structures

        /// The DeviceResponse status (8.3.2.1.2.3), read as `status`.
        public static let responseStatus = Subject(.responseStatus)
        /// The IssuerAuth COSE_Sign1 (9.1.2.4), read as `issuerAuth`.
        public static let issuerAuth = Subject(.signedStructure("issuerAuth"))
        /// The DeviceSignature or DeviceMac (9.1.3), read as `deviceAuth`.
        public static let deviceAuth = Subject(.signedStructure("deviceAuth"))
        /// A DocRequest's ReaderAuth COSE_Sign1 (9.1.4), read as `readerAuth`.
        public static let readerAuth = Subject(.signedStructure("readerAuth"))
        /// The MobileSecurityObject's content (its validity, digest algorithm, ...), read as `MSO`.
        public static let mobileSecurityObject = Subject(.mobileSecurityObject)

        /// The `x5chain` header (COSE header 33) of `signed`, ``issuerAuth`` or ``readerAuth``,
        /// or its certificate at `position`: `issuerAuth x5chain`, `issuerAuth x5chain[1]`.
        public static func x5chain(of signed: Subject, position: Int? = nil) -> Subject {
            Subject(.x5chain(of: signed.description, position: position))
        }

        /// A certificate, read as its subject name.
        public static func certificate(_ certificate: Certificate) -> Subject {
            Subject(.certificate(certificate))
        }

        /// A structure of ISO/IEC 18013-5 that did not decode, by its name there, such as
        /// `MobileSecurityObject`.
        public static func structure(_ name: String) -> Subject {
            Subject(.structure(name))
        }

        /// The document's docType, read as itself.
        public static func docType(_ docType: String) -> Subject {
            Subject(.docType(docType))
        }

        /// A returned data element, read as `nameSpace/identifier`.
        public static func element(nameSpace: String, identifier: String) -> Subject {
            Subject(.element(nameSpace: nameSpace, identifier: identifier))
        }

        /// Anything else an application's policy checks, read as `text`.
        public static func named(_ text: String) -> Subject {
            Subject(.named(text))
        }

        // MARK: Reading it

        /// The certificate, when the subject is one.
        public var certificate: Certificate? {
            if case .certificate(let certificate) = storage { return certificate }
            return nil
        }

        /// The name space and identifier, when the subject is a data element.
        public var element: (nameSpace: String, identifier: String)? {
            if case .element(let nameSpace, let identifier) = storage { return (nameSpace, identifier) }
            return nil
        }

        /// The text reports print.
        public var description: String {
            switch storage {
            case .responseStatus: return "status"
            case .signedStructure(let name): return name
            case .x5chain(let signed, nil): return "\(signed) x5chain"
            case .x5chain(let signed, let position?): return "\(signed) x5chain[\(position)]"
            case .certificate(let certificate): return certificate.subject
            case .mobileSecurityObject: return "MSO"
            case .structure(let name): return name
            case .docType(let docType): return docType
            case .element(let nameSpace, let identifier): return nameSpace + "/" + identifier
            case .named(let text): return text
            }
        }
    }
}
