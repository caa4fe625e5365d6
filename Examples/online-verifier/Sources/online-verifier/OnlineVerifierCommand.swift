import ArgumentParser
import Logging
import MdocCrypto
import OnlineVerifier

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `online-verifier`: the HTTP verifier of ISO/IEC TS 18013-7 Annex C and OpenID4VP 1.0
/// (docs/online.md).
@main
struct OnlineVerifierCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "online-verifier",
        abstract: "Serve an ISO/IEC TS 18013-7 Annex C (org-iso-mdoc) and OpenID4VP 1.0 verifier over HTTP.",
        discussion: """
            POST /requests makes a request for a web origin and keeps its state; the page gives \
            the request to the Digital Credentials API and posts the wallet's answer to POST \
            /requests/ID/response, which verifies it once and answers with the verification \
            report. GET / is a page doing both (untested here: it needs a browser with the \
            Digital Credentials API and a phone wallet). See docs/online.md.

            A request is org-iso-mdoc unless its body says "protocol": "openid4vp", with a \
            "responseMode": dc_api or dc_api.jwt through the Digital Credentials API, \
            direct_post or direct_post.jwt for a wallet that posts its answer to the \
            request's response_uri, which --public-url makes: the URL at which wallets reach \
            this service.

            --store is memory (one instance) or a PostgreSQL URL, \
            postgres://USER@HOST[:PORT]/DATABASE or postgres://USER@/DATABASE?host=/socket/dir, \
            shared by every instance serving the site. A URL with a password goes in the \
            environment variable ONLINE_VERIFIER_STORE, never on the command line.

            Examples:
              online-verifier --trust Certs/demo/iaca.pem --port 8080
              ONLINE_VERIFIER_STORE=postgres://verifier@db.internal/verifier \\
                online-verifier --trust Certs/demo/iaca.pem \\
                --reader-cert Certs/demo/reader.pem --reader-key Certs/demo/reader-key.pem
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 for any free one.")
    var port = 8080

    @Option(name: .customLong("trust"), help: ArgumentHelp("An IACA certificate file (PEM); repeat for several.", valueName: "file"))
    var trust: [String]

    @Option(help: ArgumentHelp("memory, or a PostgreSQL URL (default: ONLINE_VERIFIER_STORE, else memory).", valueName: "store"))
    var store: String?

    @Option(name: .customLong("public-url"), help: ArgumentHelp(
        "The URL at which wallets reach this service (https://verifier.example): the base of OpenID4VP response_uris; without it direct_post requests are refused.",
        valueName: "url"))
    var publicURL: String?

    @Option(name: .customLong("reader-cert"), help: ArgumentHelp("The reader certificate chain (PEM) that signs each request.", valueName: "file"))
    var readerCert: String?

    @Option(name: .customLong("reader-key"), help: ArgumentHelp("The reader private key (PEM) of --reader-cert.", valueName: "file"))
    var readerKey: String?

    func validate() throws {
        guard !trust.isEmpty else {
            throw ValidationError("give at least one --trust IACA certificate")
        }
        guard (readerCert == nil) == (readerKey == nil) else {
            throw ValidationError("--reader-cert and --reader-key go together")
        }
        guard (0...Int(UInt16.max)).contains(port) else {
            throw ValidationError("--port \(port) is not a port (0 to 65535)")
        }
        if let publicURL, VerifierServer.publicURL(publicURL) == nil {
            throw ValidationError("--public-url must be an https:// or http:// URL with a host and no query or fragment")
        }
        if let store, StoreLocation.holdsPassword(store) {
            throw ValidationError("--store holds a password, which others can read on a command line; give the URL in ONLINE_VERIFIER_STORE")
        }
    }

    func run() async throws {
        let logger = Logger(label: "online-verifier")
        let location: StoreLocation
        do {
            location = try StoreLocation(store ?? ProcessInfo.processInfo.environment["ONLINE_VERIFIER_STORE"] ?? "memory")
        } catch {
            throw ValidationError(error.reason)
        }
        var anchors: [Certificate] = []
        for path in trust {
            anchors += try Self.certificates(path, option: "--trust")
        }
        var authentication: (key: PrivateKey, chain: [Certificate])? = nil
        if let readerCert, let readerKey {
            let key: PrivateKey
            do {
                key = try PrivateKey(pemRepresentation: try String(contentsOfFile: readerKey, encoding: .utf8))
            } catch {
                throw ValidationError("--reader-key \(readerKey): not a PEM private key")
            }
            authentication = (key, try Self.certificates(readerCert, option: "--reader-cert"))
        }
        let server = VerifierServer(
            host: host, port: port, storeLocation: location, trustAnchors: anchors, readerAuthentication: authentication,
            publicURL: publicURL.flatMap(VerifierServer.publicURL), logger: logger)
        try await server.run { port in
            logger.info("online-verifier: listening on \(host):\(port)")
        }
    }

    /// The certificates of the PEM file `path`, given with `option`.
    private static func certificates(_ path: String, option: String) throws -> [Certificate] {
        let certificates: [Certificate]
        do {
            certificates = try Certificate.certificates(pemEncoded: try String(contentsOfFile: path, encoding: .utf8))
        } catch {
            throw ValidationError("\(option) \(path): not a PEM certificate file")
        }
        guard !certificates.isEmpty else {
            throw ValidationError("\(option) \(path): holds no certificate")
        }
        return certificates
    }
}
