import ArgumentParser
import MdocCrypto
import MdocFiles
import MdocModel
import MdocStatusList
import MdocStores
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

    @Option(help: "The PKI directory made by `mdoc-issuer pki`.", completion: .directory)
    var pki: String

    @Option(help: "The uri the list is published at: the token's sub.")
    var uri: String

    @Option(help: "Bits per entry: 1, 2, 4 or 8.")
    var bits: Int = 2

    @Option(help: "How many entries the list has.")
    var size: Int = 16

    @Option(name: .customLong("set"), parsing: .singleValue, help: ArgumentHelp("An entry's status: INDEX=VALUE; repeat for several.", valueName: "index=value"))
    var entries: [String] = []

    @Option(name: .customLong("issued-at"), help: "The token's iat, RFC 3339 (default: now).")
    var issuedAt: String?

    @Option(name: .customLong("valid-days"), help: "How many days after iat the token expires (exp).")
    var validDays: Int = 1

    @Option(help: "How many seconds a reader may keep the token before fetching it again (ttl).")
    var ttl: UInt64 = 43_200

    @Option(help: "The token file to write.", completion: .file())
    var out: String

    @Flag(help: "Replace an existing --out file.")
    var force = false

    func validate() throws {
        guard StatusList.allowedBits.contains(bits) else { throw ValidationError("--bits must be 1, 2, 4 or 8") }
        guard (1...Self.maximumSize / bits).contains(size) else {
            throw ValidationError("--size must be 1 to \(Self.maximumSize / bits) at \(bits) bits per entry")
        }
        guard (1...PKI.maximumValidDays).contains(validDays) else { throw ValidationError("--valid-days must be 1 to \(PKI.maximumValidDays)") }
        guard ttl > 0 else { throw ValidationError("--ttl must be at least 1 second") }
        if let issuedAt, (try? TDate(text: issuedAt)) == nil {
            throw ValidationError("--issued-at \(issuedAt): not an RFC 3339 date-time (for example 2021-01-01T00:00:00Z)")
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
            let signer: Certificate
            let key: PrivateKey
            do {
                let certificates = try CertificateFiles.loadFile(pki + "/ds.pem")
                guard certificates.count == 1, let only = certificates.first else {
                    throw ProgramFailure(.badTrustInput, "--pki \(pki)/ds.pem: holds \(certificates.count) certificates, expected one")
                }
                signer = only
                key = try KeyFiles.loadPrivateKey(pki + "/ds-key.pem")
            } catch let failure as ProgramFailure {
                throw failure
            } catch {
                throw ProgramFailure(.badTrustInput, "--pki \(error)")
            }
            guard key.publicKey == signer.publicKey else {
                throw ProgramFailure(.badTrustInput, "--pki \(pki): ds-key.pem is not the key of ds.pem")
            }
            let issued = issuedAt.flatMap { try? TDate(text: $0) }?.date ?? Date()
            let iat = Int64(issued.timeIntervalSince1970.rounded(.down))
            let token: StatusListToken
            do {
                let claims = StatusListTokenClaims(
                    subject: uri, issuedAt: iat, expiration: iat + Int64(validDays) * 86_400, timeToLive: ttl,
                    statusList: try StatusList(bits: bits, values: values))
                token = try StatusListTokenBuilder(claims: claims, x5chain: [signer.derRepresentation]).sign(with: key)
            } catch {
                throw ProgramFailure(.badTrustInput, "cannot make the status list: \(error)")
            }
            try OutputFile.create(token.bytes, at: out, mode: OutputFile.publicMode, replacing: force)
            let expires = TDate(Date(timeIntervalSince1970: TimeInterval(iat + Int64(validDays) * 86_400))).text
            ProgramOutput.standardOutput.writeLine(
                "Wrote a status list of \(size) \(size == 1 ? "entry" : "entries") (\(bits) bits each) for \(uri), valid until \(expires), signed by \(signer.subject), to \(out)")
            for (index, value) in values.enumerated() where value != .valid {
                ProgramOutput.standardOutput.writeLine("  entry \(index): \(value)")
            }
        }
    }
}
