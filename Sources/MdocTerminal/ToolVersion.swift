/// The version every program prints for `--version`.
public enum ToolVersion {
    /// The toolkit version.
    public static let current = "0.1.0"
}
