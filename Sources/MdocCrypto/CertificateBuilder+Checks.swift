import COpenSSL

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CertificateBuilder {
    /// Checks the fields against the profile and the bounds before anything is built.
    func checkFields() throws(CryptoError) {
        guard notValidBefore.timeIntervalSince1970.rounded(.down) < notValidAfter.timeIntervalSince1970.rounded(.down) else {
            throw CryptoError(.invalidParameter, "certificate builder: notValidBefore must come before notValidAfter")
        }
        try subject.check()
        if profile.requiresIssuerInformation {
            guard issuerAlternativeName != nil else {
                throw CryptoError(.invalidParameter, "certificate builder: ISO/IEC 18013-5 Annex B requires an issuerAltName in the \(profile) certificate")
            }
            guard crlDistributionPoint != nil else {
                throw CryptoError(.invalidParameter, "certificate builder: ISO/IEC 18013-5 Annex B requires a cRLDistributionPoints URI in the \(profile) certificate")
            }
        }
        try checkExtendedKeyUsages()
        switch issuerAlternativeName {
        case .uri(let value)?:
            try Self.checkGeneralName(value, field: "issuerAltName URI", mustContain: ":")
        case .email(let value)?:
            try Self.checkGeneralName(value, field: "issuerAltName email", mustContain: "@")
        case nil:
            break
        }
        if let crlDistributionPoint {
            try Self.checkGeneralName(crlDistributionPoint, field: "cRLDistributionPoints URI", mustContain: ":")
        }
    }

    /// ``extendedKeyUsageOIDs``: none for a root; otherwise, when given, at least one, each a
    /// dotted OID, none repeated, and not together with a deviation that sets or removes them.
    /// ``deviations`` only for an end-entity certificate.
    private func checkExtendedKeyUsages() throws(CryptoError) {
        if !deviations.isEmpty {
            guard !profile.isRoot else {
                throw CryptoError(.invalidParameter, "certificate builder: deviations are made in end-entity certificates, not in a \(profile) certificate")
            }
            guard extendedKeyUsageOIDs == nil || deviations.isDisjoint(with: [.noExtendedKeyUsage, .wrongExtendedKeyUsage]) else {
                throw CryptoError(.invalidParameter, "certificate builder: extendedKeyUsage purposes are given and a deviation replaces them")
            }
        }
        guard let purposes = extendedKeyUsageOIDs else { return }
        guard !profile.isRoot else {
            throw CryptoError(.invalidParameter, "certificate builder: a \(profile) certificate has no extendedKeyUsage (ISO/IEC 18013-5 Annex B)")
        }
        guard !purposes.isEmpty else {
            throw CryptoError(.invalidParameter, "certificate builder: the extendedKeyUsage of the \(profile) certificate needs at least one purpose")
        }
        for (index, purpose) in purposes.enumerated() {
            if let problem = ObjectIdentifierSyntax.problem(in: purpose) {
                throw CryptoError(.invalidParameter, "certificate builder: extendedKeyUsage purpose \(index + 1) is not a dotted OID: \(problem)")
            }
            guard !purposes[..<index].contains(purpose) else {
                throw CryptoError(.invalidParameter, "certificate builder: extendedKeyUsage purpose \(purpose) is repeated")
            }
        }
    }

    /// A GeneralName value is an IA5String: printable ASCII without spaces (RFC 5280 section
    /// 4.2.1.6 for URIs and mail addresses), at most ``maximumGeneralNameLength`` characters.
    private static func checkGeneralName(_ value: String, field: String, mustContain marker: Character) throws(CryptoError) {
        let bytes = Array(value.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumGeneralNameLength else {
            throw CryptoError(
                .invalidParameter,
                "certificate builder: the \(field) must have 1 to \(maximumGeneralNameLength) characters, not \(bytes.count)"
            )
        }
        guard bytes.allSatisfy({ (0x21...0x7E).contains($0) }), value.contains(marker) else {
            throw CryptoError(
                .invalidParameter,
                "certificate builder: the \(field) \"\(value)\" is not printable ASCII without spaces containing \"\(marker)\""
            )
        }
    }
}

extension CertificateBuilder.DistinguishedName {
    /// Checks the attributes against ISO/IEC 18013-5 Annex B and the RFC 5280 bounds.
    func check() throws(CryptoError) {
        let countryBytes = Array(country.utf8)
        guard countryBytes.count == 2, countryBytes.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
            throw CryptoError(
                .invalidParameter,
                "certificate builder: countryName \"\(country)\" is not two upper-case letters (ISO 3166-1 alpha-2)"
            )
        }
        try Self.checkAttribute(commonName, named: "commonName")
        if let stateOrProvince { try Self.checkAttribute(stateOrProvince, named: "stateOrProvinceName") }
        if let organization { try Self.checkAttribute(organization, named: "organizationName") }
        for unit in organizationalUnits { try Self.checkAttribute(unit, named: "organizationalUnitName") }
    }

    private static func checkAttribute(_ value: String, named name: String) throws(CryptoError) {
        let length = value.utf8.count
        let limit = CertificateBuilder.maximumNameAttributeLength
        guard length > 0, length <= limit else {
            throw CryptoError(.invalidParameter, "certificate builder: \(name) must have 1 to \(limit) UTF-8 bytes, not \(length)")
        }
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw CryptoError(.invalidParameter, "certificate builder: \(name) contains a control character")
        }
    }

    /// The name as a new OpenSSL `X509_NAME` the caller frees: C, ST, O, CN.
    func openSSLName() throws(CryptoError) -> OpaquePointer {
        guard let name = X509_NAME_new() else {
            throw .openSSL(.libraryFailure, "certificate builder: cannot allocate a name")
        }
        var attributes: [(Int32, Int32, String)] = [(NID_countryName, MBSTRING_ASC, country)]
        if let stateOrProvince { attributes.append((NID_stateOrProvinceName, MBSTRING_UTF8, stateOrProvince)) }
        if let organization { attributes.append((NID_organizationName, MBSTRING_UTF8, organization)) }
        attributes += organizationalUnits.map { (NID_organizationalUnitName, MBSTRING_UTF8, $0) }
        attributes.append((NID_commonName, MBSTRING_UTF8, commonName))
        for (nid, type, value) in attributes {
            let bytes = Array(value.utf8)
            let status = bytes.withUnsafeBufferPointer { buffer in
                X509_NAME_add_entry_by_NID(name, nid, type, buffer.baseAddress, Int32(buffer.count), -1, 0)
            }
            guard status == 1 else {
                X509_NAME_free(name)
                throw .openSSL(.invalidParameter, "certificate builder: the name attribute \"\(value)\" does not encode")
            }
        }
        return name
    }
}
