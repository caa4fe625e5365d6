import ArgumentParser
import MdocCrypto
import MdocSession

/// `--accept-ds-eku DOCTYPE=OID`: extended key usages to accept from document signers of one
/// doc type besides those of its rule (`DocumentSignerPolicy`), for the commands that check a
/// document signer: `mdoc-reader verify` and `request`, and `mdoc-issuer issue`.
package struct DocumentSignerOptions: ParsableArguments {
    @Option(name: .customLong("accept-ds-eku"), parsing: .singleValue,
            help: ArgumentHelp(
                "Accept document signers of DOCTYPE whose extendedKeyUsage is OID (a dotted object identifier), besides the purposes of the doc type's rule; repeat for more.",
                valueName: "doctype=oid"))
    package var acceptedPurposes: [String] = []

    /// No purpose added.
    package init() {}

    /// Refuses an `--accept-ds-eku` that is not DOCTYPE=OID (``policy()``).
    package func validate() throws {
        _ = try policy()
    }

    /// The standard policy with every `--accept-ds-eku` added; a usage error names the first
    /// one that is not DOCTYPE=OID.
    package func policy() throws(ValidationError) -> DocumentSignerPolicy {
        var policy = DocumentSignerPolicy.standard
        for argument in acceptedPurposes {
            guard let separator = argument.lastIndex(of: "=") else {
                throw ValidationError("--accept-ds-eku \(argument): give DOCTYPE=OID, for example eu.europa.ec.av.1=1.3.130.2.0.0.1.2")
            }
            let docType = String(argument[..<separator])
            let purpose = String(argument[argument.index(after: separator)...])
            do {
                try policy.accept(purpose, forDocType: docType)
            } catch {
                throw ValidationError("--accept-ds-eku \(argument): \(error.reason)")
            }
        }
        return policy
    }
}
