import ArgumentParser
import MdocCrypto
import MdocFiles
import MdocModel
import MdocStatusList
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-issuer status-list`: a signed Status List Token for the documents of a PKI.
struct StatusListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status-list",
        abstract: "Write a Status List Token (IETF draft-ietf-oauth-status-list) signed by a PKI's document signer.",
        discussion: """
            The documents issued with `issue --status-uri URI --status-index N` point to entry N \
            of the list published at URI; this writes that list: --size entries of --bits bits, \
            all VALID but those --set gives, compressed (zlib) into a CWT signed with the \
            document signer of --pki (ds-key.pem, its certificate ds.pem in the x5chain, so that \
            a reader binds the list to the documents' issuer), `sub` the URI, `iat` now (or \
            --issued-at), `exp` --valid-days later and `ttl` --ttl. Publish the file at the URI \
            with the media type application/statuslist+cwt.

            VALUE is valid (0), invalid (1), suspended (2) or a number that fits --bits.

            Examples:
              mdoc-issuer status-list --pki my-pki --uri https://issuer.example/status/1 \\
                --set 7=invalid --set 9=suspended --out status-1.cwt

            Exit codes: 0 written; 7 unusable --pki, or --out exists (without --force) or \
            cannot be written; 64 usage error.
            """
    )

    /// The most entries a list may have: as many as fit the decompressed size a reader
    /// accepts at 1 bit each (``StatusListLimits/decompressedBytes``).
    static var maximumSize: Int { StatusListLimits.decompressedBytes * 8 }

    @OptionGroup var token: StatusTokenOptions

    @Option(help: "Bits per entry: 1, 2, 4 or 8.")
    var bits: Int = 2

    @Option(help: "How many entries the list has.")
    var size: Int = 16

    @Option(name: .customLong("set"), parsing: .singleValue, help: ArgumentHelp("An entry's status: INDEX=VALUE; repeat for several.", valueName: "index=value"))
    var entries: [String] = []


    func validate() throws {
        guard StatusList.allowedBits.contains(bits) else { throw ValidationError("--bits must be 1, 2, 4 or 8") }
        guard (1...Self.maximumSize / bits).contains(size) else {
            throw ValidationError("--size must be 1 to \(Self.maximumSize / bits) at \(bits) bits per entry")
        }
        _ = try values()
    }

    /// The entries' values: VALID but those `--set` gives.
    private func values() throws(ValidationError) -> [StatusValue] {
        var values = [StatusValue](repeating: .valid, count: size)
        for entry in entries {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let index = Int(parts[0]), (0..<size).contains(index) else {
                throw ValidationError("--set \(entry): expected INDEX=VALUE with INDEX from 0 to \(size - 1)")
            }
            let value: UInt8
            switch parts[1] {
            case "valid": value = StatusValue.valid.rawValue
            case "invalid": value = StatusValue.invalid.rawValue
            case "suspended": value = StatusValue.suspended.rawValue
            default:
                guard let number = UInt8(parts[1]), Int(number) < 1 << bits else {
                    throw ValidationError("--set \(entry): the value is valid, invalid, suspended or a number below \(1 << bits)")
                }
                value = number
            }
            values[index] = StatusValue(rawValue: value)
        }
        return values
    }

    func run() throws {
        let values = try values()
        ProgramFailure.reporting(program: "mdoc-issuer") { () throws(ProgramFailure) in
            let (signer, key) = try token.signer()
            let (iat, exp) = token.times
            let made: StatusListToken
            do {
                let claims = StatusListTokenClaims(
                    subject: token.uri, issuedAt: iat, expiration: exp, timeToLive: token.ttl,
                    statusList: try StatusList(bits: bits, values: values))
                made = try StatusListTokenBuilder(claims: claims, x5chain: [signer.derRepresentation]).sign(with: key)
            } catch {
                throw ProgramFailure(.badTrustInput, "cannot make the status list: \(error)")
            }
            try OutputFile.create(made.bytes, at: token.out, mode: OutputFile.publicMode, replacing: token.force)
            let expires = TDate(Date(timeIntervalSince1970: TimeInterval(exp))).text
            ProgramOutput.standardOutput.writeLine(
                "Wrote a status list of \(size) \(size == 1 ? "entry" : "entries") (\(bits) bits each) for \(token.uri), valid until \(expires), signed by \(signer.subject), to \(token.out)")
            for (index, value) in values.enumerated() where value != .valid {
                ProgramOutput.standardOutput.writeLine("  entry \(index): \(value)")
            }
        }
    }
}
