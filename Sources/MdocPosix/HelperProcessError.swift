/// Why a helper program could not be started.
package struct HelperProcessError: Error, CustomStringConvertible {
    /// What happened.
    package let description: String

    /// The failure `description`.
    package init(_ description: String) {
        self.description = description
    }
}
