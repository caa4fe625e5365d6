import ArgumentParser
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The arguments that name a private key held by a PKCS#11 token or a TPM 2.0, as
/// `mdoc-holder import --key-in`, `mdoc-holder key generate --in` and `mdoc-reader request
/// --reader-key` take them: a PKCS#11 URI (RFC 7512) with `--module`, the token's PKCS#11
/// module, or `tpm2[:TCTI]` with `--key-file`, the TSS2 key blob (the TCTI `device:/dev/tpmrm0`
/// when none is given).
package enum TokenKeyArguments {
    /// The TCTI of `tpm2` without one: the kernel's TPM resource manager.
    package static let defaultTCTI = "device:/dev/tpmrm0"

    /// Whether `value` names a key in a token or TPM (`pkcs11:...`, `tpm2`, `tpm2:TCTI`) rather
    /// than a file.
    package static func namesTokenKey(_ value: String) -> Bool {
        value.hasPrefix("pkcs11:") || value == "tpm2" || value.hasPrefix("tpm2:")
    }

    /// Checks that `value`, given as `option`, comes with the `--module` or `--key-file` its kind
    /// needs and not the other: a usage error names what is missing or out of place.
    package static func validate(_ value: String, option: String, module: String?, keyFile: String?) throws(ValidationError) {
        if value.hasPrefix("pkcs11:") {
            guard module != nil else { throw ValidationError("\(option) pkcs11:... needs --module, the token's PKCS#11 module") }
            guard keyFile == nil else { throw ValidationError("--key-file is for a tpm2 key, not a PKCS#11 one") }
        } else if value == "tpm2" || value.hasPrefix("tpm2:") {
            guard keyFile != nil else { throw ValidationError("\(option) tpm2 needs --key-file, the TSS2 key blob") }
            guard module == nil else { throw ValidationError("--module is for a PKCS#11 key, not a tpm2 one") }
        } else {
            throw ValidationError("\(option) \(value): give a PKCS#11 URI (pkcs11:...) or tpm2[:TCTI]")
        }
    }

    /// The key `value` names (checked by ``validate(_:option:module:keyFile:)``), the paths of
    /// `module` and `keyFile` made absolute so that the reference holds wherever it is used.
    package static func reference(_ value: String, module: String?, keyFile: String?) -> DeviceKeyReference {
        if let module {
            return .pkcs11(uri: value, module: absolute(module))
        }
        let tcti = value.hasPrefix("tpm2:") ? String(value.dropFirst("tpm2:".count)) : defaultTCTI
        return .tpm2(keyFile: absolute(keyFile ?? ""), tcti: tcti)
    }

    /// `path`, relative to the working directory, as an absolute path.
    package static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
