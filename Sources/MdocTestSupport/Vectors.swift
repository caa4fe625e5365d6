import MdocCBOR

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Loads the project's test data from `Vectors/` at the top of the repository.
///
/// The folder is found from this file's location, or from `MDOC_VECTORS_DIR` when set (for
/// builds that move the sources).
package enum Vectors {
    /// The `Vectors/` folder.
    package static let directory: String = {
        if let override = ProcessInfo.processInfo.environment["MDOC_VECTORS_DIR"] {
            return override
        }
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // .../Sources/MdocTestSupport/Vectors.swift -> .../Vectors
        components.removeLast(3)
        return components.joined(separator: "/") + "/Vectors"
    }()

    /// The repository's top folder.
    package static var repositoryRoot: String {
        String(directory.dropLast("/Vectors".count))
    }

    /// The bytes of an ISO/IEC 18013-5 Annex D vector, by file name without `.hex`
    /// (`annexD("device_response")`).
    package static func annexD(_ name: String) -> [UInt8] {
        let path = "\(directory)/iso18013-5-annex-d/\(name).hex"
        guard let data = FileManager.default.contents(atPath: path) else {
            fatalError("missing test vector \(path)")
        }
        guard let bytes = Hex.decode(String(decoding: data, as: UTF8.self)) else {
            fatalError("test vector \(path) is not hex")
        }
        return bytes
    }

    /// The path of a file under `Vectors/`.
    package static func path(_ relative: String) -> String {
        "\(directory)/\(relative)"
    }
}
