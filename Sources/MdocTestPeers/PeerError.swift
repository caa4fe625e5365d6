/// A test peer could not go on: the program or driver under test did not do what the step
/// needs (it closed the link, offered another mode), or the peer was used out of order.
package struct PeerError: Error, CustomStringConvertible {
    /// What went wrong.
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}
