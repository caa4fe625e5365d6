import Foundation
import MdocSession

/// The demo mDL of Certs/demo, which the holder target presents, and its reader-side context.
public enum DemoCredential {
    public static let mdl: Credential = {
        let path = AnnexD.repositoryRoot + "/Certs/demo/mdl.mdoc"
        guard let data = FileManager.default.contents(atPath: path), let credential = try? Credential(encoded: [UInt8](data)) else {
            fatalError("fuzz context missing: \(path)")
        }
        return credential
    }()
}
