/// The logic of a virtual card (``VirtualCard``): its answers to command APDUs, and what it
/// does when the reader powers it up, down or resets it.
public protocol VirtualCardHandler: Sendable {
    /// The response APDU to `command`, its status word last (ISO/IEC 7816-4 5.1): 2 to
    /// ``VPICCFrame/maximumPayloadLength`` octets. Commands come one at a time.
    func respond(to command: [UInt8]) async -> [UInt8]

    /// The reader powered the card up (`on`) or down: a card's volatile state (the selected
    /// application, a session) ends with its power. By default nothing happens.
    func powerChanged(on: Bool) async

    /// The reader reset the card (a warm reset, ISO/IEC 7816-3 6.2.3). By default nothing
    /// happens.
    func reset() async
}

extension VirtualCardHandler {
    /// Nothing.
    public func powerChanged(on: Bool) async {}

    /// Nothing.
    public func reset() async {}
}
