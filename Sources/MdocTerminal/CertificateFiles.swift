import MdocCBOR
import MdocCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads certificates for `--trust` and similar options: files holding PEM (one or more
/// certificates), DER, or hex DER, and directories of such files.
public enum CertificateFiles {
    /// The most certificate files one directory may contribute; a bound, so pointing `--trust` at
    /// a large folder by mistake fails clearly instead of reading it all.
    public static let maximumFilesPerDirectory = 1024

    /// All certificates in `paths`, in order (directory entries sorted by name).
    public static func load(_ paths: [String]) throws(InputError) -> [Certificate] {
        var certificates: [Certificate] = []
        for path in paths {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw InputError(.unreadable, source: path, "no such file or directory")
            }
            if isDirectory {
                let names: [String]
                do {
                    names = try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasPrefix(".") }.sorted()
                } catch {
                    throw InputError(.unreadable, source: path, "cannot list the directory")
                }
                guard names.count <= maximumFilesPerDirectory else {
                    throw InputError(.tooLarge, source: path, "more than \(maximumFilesPerDirectory) files")
                }
                for name in names {
                    let file = path + "/" + name
                    var isSubdirectory = false
                    if FileManager.default.fileExists(atPath: file, isDirectory: &isSubdirectory), !isSubdirectory {
                        certificates += try loadFile(file)
                    }
                }
            } else {
                certificates += try loadFile(path)
            }
        }
        return certificates
    }

    /// The certificates in one file.
    public static func loadFile(_ path: String) throws(InputError) -> [Certificate] {
        let raw = try InputSource.load(path)
        let text = String(decoding: raw.bytes, as: UTF8.self)
        do {
            if raw.encoding == .binary, text.contains("-----BEGIN CERTIFICATE-----") {
                let certificates = try Certificate.certificates(pemEncoded: text)
                guard !certificates.isEmpty else {
                    throw InputError(.unsupportedContent, source: path, "no certificate in the PEM text")
                }
                return certificates
            }
            return [try Certificate(derEncoded: raw.bytes)]
        } catch let error as CryptoError {
            throw InputError(.unsupportedContent, source: path, "not a usable certificate: \(error)")
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(.unsupportedContent, source: path, "\(error)")
        }
    }
}
