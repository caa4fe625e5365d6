import ArgumentParser
import MdocCBOR
import MdocCrypto
import MdocFiles
import MdocStatusList
import MdocModel
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-issuer identifier-list`: a signed identifier list token for the documents of a PKI.
struct IdentifierListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identifier-list",
        abstract: "Write an identifier list token (ISO/IEC 18013-5 second edition) signed by a PKI's document signer.",
        discussion: """
            The documents issued with `issue --identifier-list-uri URI` carry an identifier \
            (printed when issued); a document whose identifier the list published at URI holds \
            is revoked. This writes that list: the identifiers --revoke gives, in a CWT signed \
            with the document signer of --pki (ds-key.pem, its certificate ds.pem in the \
            x5chain), `sub` the URI, `iat` now (or --issued-at), `exp` --valid-days later and \
            `ttl` --ttl. Publish the file at the URI with the media type \
            application/identifierlist+cwt.

            Examples:
              mdoc-issuer identifier-list --pki my-pki --uri https://issuer.example/ids/1 \\
                --revoke 5f0c2a9e41d3b7c8a1e2f3d4c5b6a798 --out ids-1.cwt

            Exit codes: 0 written; 7 unusable --pki, or --out exists (without --force) or \
            cannot be written; 64 usage error.
            """
    )

    @OptionGroup var token: StatusTokenOptions

    @Option(name: .customLong("revoke"), parsing: .singleValue,
            help: ArgumentHelp("A revoked document's identifier, in hex; repeat for several (none: a list that revokes nothing).", valueName: "hex"))
    var revoked: [String] = []

    func validate() throws {
        _ = try identifiers()
    }

    /// The identifiers `--revoke` gives, each once, in order.
    private func identifiers() throws(ValidationError) -> [[UInt8]] {
        var identifiers: [[UInt8]] = []
        for text in revoked {
            guard let identifier = Hex.decode(text), !identifier.isEmpty else {
                throw ValidationError("--revoke \(text): not a non-empty hex string")
            }
            if !identifiers.contains(identifier) { identifiers.append(identifier) }
        }
        return identifiers
    }

    func run() throws {
        let identifiers = try identifiers()
        ProgramFailure.reporting(program: "mdoc-issuer") { () throws(ProgramFailure) in
            let (signer, key) = try token.signer()
            let (iat, exp) = token.times
            let made: IdentifierListToken
            do {
                let claims = IdentifierListTokenClaims(
                    subject: token.uri, issuedAt: iat, expiration: exp, timeToLive: token.ttl,
                    identifierList: IdentifierList(identifiers: identifiers))
                made = try IdentifierListTokenBuilder(claims: claims, x5chain: [signer.derRepresentation]).sign(with: key)
            } catch {
                throw ProgramFailure(.badTrustInput, "cannot make the identifier list: \(error)")
            }
            try OutputFile.create(made.bytes, at: token.out, mode: OutputFile.publicMode, replacing: token.force)
            let expires = TDate(Date(timeIntervalSince1970: TimeInterval(exp))).text
            ProgramOutput.standardOutput.writeLine(
                "Wrote an identifier list of \(TerminalText(count: identifiers.count, "revoked document")) for \(token.uri), valid until \(expires), signed by \(signer.subject), to \(token.out)")
        }
    }
}
