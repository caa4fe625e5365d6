import ArgumentParser
import MdocCBOR
import MdocCOSE
import MdocModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A fault `mdoc-issuer vical --break` makes in a signed VICAL (ISO/IEC 18013-5 Annex C.1.7),
/// for negative test material: each one makes exactly one check of a reader's `VICALVerifier`
/// fail, or (`detached`) decoding the signed VICAL refuse it.
enum VICALBreakage: String, ExpressibleByArgument, CaseIterable {
    /// The COSE_Sign1 signature with a flipped bit (check `signature`).
    case signature
    /// The first entry's `serialNumber` not its certificate's (entry check `serialNumber`).
    case serial
    /// The first entry's `ski` not its certificate's subject key identifier (entry check `ski`).
    case ski
    /// The first entry's `issuer` another Name (entry check `issuer`).
    case issuer
    /// The first entry's `subject` another Name (entry check `subject`).
    case subject
    /// The first entry's `notAfter` a day after its certificate's (entry check `validityFields`).
    case notAfter = "not-after"
    /// `version` 2.0 (check `version`).
    case version
    /// `date` a day after the time of signing (check `date`).
    case futureDate = "future-date"
    /// No `x5chain` in the unprotected header (check `signerCertificate`).
    case noX5chain = "no-x5chain"
    /// The payload detached: `null` in the COSE_Sign1, which a signed VICAL must not be.
    case detached

    /// The version `version` writes: a major version readers of 1.x refuse.
    static let brokenVersion = "2.0"

    /// What the fault is, for the help and the test-material notes.
    var explanation: String {
        switch self {
        case .signature: return "the COSE_Sign1 signature has a flipped bit"
        case .serial: return "the first entry's serialNumber is not its certificate's"
        case .ski: return "the first entry's ski is not its certificate's subjectKeyIdentifier"
        case .issuer: return "the first entry's issuer is the VICAL signer's subject Name, not its certificate's issuer"
        case .subject: return "the first entry's subject is the VICAL signer's subject Name, not its certificate's"
        case .notAfter: return "the first entry's notAfter is a day after its certificate's"
        case .version: return "the version is \(Self.brokenVersion), which readers of version 1 refuse"
        case .futureDate: return "the date is a day after the time of signing"
        case .noX5chain: return "the COSE_Sign1 carries no x5chain with the VICAL signer certificate"
        case .detached: return "the COSE_Sign1's payload is detached (null), so the VICAL cannot be read"
        }
    }

    /// Whether the fault is in the first entry (which must then exist).
    var breaksEntry: Bool {
        [.serial, .ski, .issuer, .subject, .notAfter].contains(self)
    }

    /// Puts an entry fault into `info`; `otherName` is a DER Name other than the certificate's.
    func apply(to info: inout VICAL.CertificateInfo, otherName: [UInt8]) {
        switch self {
        case .serial: info.serialNumber = Self.flippingLastBit(info.serialNumber)
        case .ski: info.ski = Self.flippingLastBit(info.ski)
        case .issuer: info.issuer = otherName
        case .subject: info.subject = otherName
        case .notAfter: info.notAfter = info.notAfter.map { TDate($0.date.addingTimeInterval(86_400)) }
        case .signature, .version, .futureDate, .noX5chain, .detached: return
        }
    }

    /// Puts a fault of the list into `vical`.
    func apply(to vical: inout VICAL) {
        switch self {
        case .version: vical.version = Self.brokenVersion
        case .signature, .serial, .ski, .issuer, .subject, .notAfter, .futureDate, .noX5chain, .detached: return
        }
    }

    /// Puts a fault of the COSE_Sign1 into `message`. The unprotected header and the payload's
    /// place are not signed (RFC 9052 section 4.4), so the signature stays valid for `no-x5chain`
    /// and `detached`.
    func apply(to message: COSESign1) throws(CBORError) -> COSESign1 {
        switch self {
        case .signature:
            return COSESign1(headers: message.headers, payload: message.payload, signature: Self.flippingLastBit(message.signature))
        case .noX5chain:
            var unprotected = CBORMap()
            for entry in message.unprotectedHeaders.entries where entry.key != CBOR(COSEHeaders.Label.x5chain) {
                unprotected.append(entry.key, entry.value)
            }
            let headers = try COSEHeaders(protectedBytes: message.protectedHeaderBytes, unprotected: unprotected)
            return COSESign1(headers: headers, payload: message.payload, signature: message.signature)
        case .detached:
            return COSESign1(headers: message.headers, payload: nil, signature: message.signature)
        case .serial, .ski, .issuer, .subject, .notAfter, .version, .futureDate:
            return message
        }
    }

    /// `bytes` with the lowest bit of the last byte flipped (a single zero byte for none).
    private static func flippingLastBit(_ bytes: [UInt8]) -> [UInt8] {
        guard let last = bytes.last else { return [0] }
        return bytes.dropLast() + [last ^ 1]
    }
}
