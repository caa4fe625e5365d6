import MdocBLE
import MdocCBOR
import MdocModel

extension MdocHolder {
    /// One engagement for one reader, made by ``MdocHolder/engagement()`` with its own
    /// ephemeral device key and service UUIDs. It cannot be copied, and ``run(over:)`` consumes
    /// it: an engagement is used for one session.
    ///
    /// Progress comes as ``events``, an asynchronous sequence that a user interface reads at
    /// its own pace: the session never waits for it. It ends when the session does.
    public struct Engagement: ~Copyable, Sendable {
        /// What happens in the session, as it happens; finished when the session ends.
        public let events: AsyncStream<HolderEvent>
        var driver: HolderDriver
        private let feed: EventFeed<HolderEvent>

        init(driver: HolderDriver, events: AsyncStream<HolderEvent>, feed: EventFeed<HolderEvent>) {
            self.driver = driver
            self.events = events
            self.feed = feed
        }

        /// The `mdoc:` URI to show as a QR code (8.2.2.3).
        public var uri: MdocURI { driver.mdocURI }

        /// DeviceEngagementBytes (8.2.1.1).
        public var deviceEngagement: EmbeddedCBOR<DeviceEngagement> { driver.deviceEngagement }

        /// The BLE modes the engagement offers.
        public var modes: [MdocBLEMode] { driver.modes }

        /// Waits over `radio` for a reader in any mode the engagement offers, within the
        /// connection bound, and runs the session with the first that starts one.
        public consuming func run(over radio: any MdocRadio) async -> HolderSessionResult {
            let result = await driver.run(over: radio)
            feed.finish()
            return result
        }

        /// Runs the session on `transport`, a link a reader has started; the transport is
        /// closed when this returns.
        public consuming func run(on transport: any MdocTransport) async -> HolderSessionResult {
            let result = await driver.run(on: transport)
            feed.finish()
            return result
        }
    }
}
