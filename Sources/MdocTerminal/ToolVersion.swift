/// The version every program prints for `--version`.
package enum ToolVersion {
    /// The toolkit version.
    package static let current = "0.1.0"
}
