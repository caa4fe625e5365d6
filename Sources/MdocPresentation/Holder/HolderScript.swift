/// How a ``HolderDriver`` departs from the session ISO/IEC 18013-5 9.1.1.4 describes, on
/// purpose, to see what the mdoc reader does: each SessionData the holder sends with a
/// DeviceResponse may be rewritten before it goes over the link. Conformance tests of a reader
/// under test use it (a response whose ciphertext does not authenticate); ``asBuilt`` is the
/// session as the state machine builds it.
package struct HolderScript: Sendable {
    /// The SessionData to send in place of each the session built to carry a DeviceResponse.
    package var response: @Sendable ([UInt8]) -> [UInt8]

    /// A script rewriting each SessionData that carries a response with `response`.
    package init(response: @escaping @Sendable ([UInt8]) -> [UInt8] = { $0 }) {
        self.response = response
    }

    /// The session as built: nothing rewritten.
    package static let asBuilt = HolderScript()
}
