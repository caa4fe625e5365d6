import MdocFiles

/// Where trust anchors come from when the command line names none: `--trust` for a reader
/// (IACA roots) and `--trust-readers` for a holder (reader roots) may be left out when an
/// environment variable or the user's trust store (``UserDirectories``) names them.
///
/// The order: the option's paths; else the variable (`MDOC_TRUST`, `MDOC_TRUST_READERS`), paths
/// separated by `:` as in `PATH`; else the store folder, when it exists.
public struct DefaultTrust: Sendable {
    /// The environment variable of the IACA roots a reader trusts.
    public static let issuerVariable = "MDOC_TRUST"
    /// The environment variable of the reader roots a holder trusts.
    public static let readerVariable = "MDOC_TRUST_READERS"

    /// The paths to read anchors from; empty when nothing names any.
    public let paths: [String]
    /// Where they came from, for a note: `nil` when the option gave them.
    public let origin: String?

    /// The anchors' paths for an option given as `option`, with `variable` and `folder` as the
    /// defaults, in a process with `environment`.
    public init(option: [String], variable: String, folder: String, environment: [String: String]) {
        if !option.isEmpty {
            paths = option
            origin = nil
        } else if let value = environment[variable], !value.isEmpty {
            paths = value.split(separator: ":").map(String.init).filter { !$0.isEmpty }
            origin = "\(variable)"
        } else if DirectoryListing.kind(of: folder) == .folder {
            paths = [folder]
            origin = "the trust store \(folder)"
        } else {
            paths = []
            origin = nil
        }
    }

    /// A reader's IACA roots: `--trust`, else `MDOC_TRUST`, else ``UserDirectories/issuerTrust``.
    public static func issuers(_ option: [String], environment: [String: String]) -> DefaultTrust {
        DefaultTrust(
            option: option, variable: issuerVariable, folder: UserDirectories(environment: environment).issuerTrust,
            environment: environment)
    }

    /// A holder's reader roots: `--trust-readers`, else `MDOC_TRUST_READERS`, else
    /// ``UserDirectories/readerTrust``.
    public static func readers(_ option: [String], environment: [String: String]) -> DefaultTrust {
        DefaultTrust(
            option: option, variable: readerVariable, folder: UserDirectories(environment: environment).readerTrust,
            environment: environment)
    }
}
