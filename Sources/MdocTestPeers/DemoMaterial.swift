import MdocCBOR
import MdocCrypto
import MdocSession
import MdocTestSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The committed demo material of Certs/demo (made by `mdoc-issuer pki` and `issue`), which the
/// test peers present and trust.
package enum DemoMaterial {
    /// The path of a file of Certs/demo.
    package static func path(_ name: String) -> String {
        Vectors.repositoryRoot + "/Certs/demo/" + name
    }

    /// The demo mDL (Certs/demo/mdl.mdoc).
    package static func mDL() throws -> Credential {
        try credential("mdl.mdoc")
    }

    /// The demo EU PID (Certs/demo/pid.mdoc).
    package static func pid() throws -> Credential {
        try credential("pid.mdoc")
    }

    /// A credential file of Certs/demo.
    package static func credential(_ name: String) throws -> Credential {
        try Credential(encoded: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name)))))
    }

    /// The first certificate of a PEM file of Certs/demo.
    package static func certificate(_ name: String) throws -> Certificate {
        try Certificate(pemEncoded: try String(contentsOfFile: path(name), encoding: .utf8))
    }

    /// The demo IACA (Certs/demo/iaca.pem).
    package static func iaca() throws -> Certificate {
        try certificate("iaca.pem")
    }
}

extension DemoMaterial {
    /// A private key of Certs/demo (PEM).
    package static func privateKey(_ name: String) throws -> PrivateKey {
        try PrivateKey(pemRepresentation: try String(contentsOfFile: path(name), encoding: .utf8))
    }

    /// The demo reader's signing key and certificate (Certs/demo/reader-key.pem, reader.pem),
    /// issued under Certs/demo/reader-root.pem.
    package static func readerAuthentication() throws -> (key: PrivateKey, chain: [Certificate]) {
        (try privateKey("reader-key.pem"), [try certificate("reader.pem")])
    }
}
