import MdocBLE
import MdocCBOR
import MdocModel
import MdocNFC
import MdocSession

extension MdocReader {
    /// One session with one mdoc, made by ``MdocReader/session(for:)-(MdocURI)`` or
    /// ``MdocReader/session(for:)-(NFCEngagement)`` with its own ephemeral key. It cannot be
    /// copied, and ``run(over:)`` consumes it: a session runs once.
    ///
    /// Progress comes as ``events``, an asynchronous sequence that a user interface reads at its
    /// own pace: the session never waits for it. It ends when the session does.
    public struct Session: ~Copyable, Sendable {
        /// What happens in the session, as it happens; finished when the session ends.
        public let events: AsyncStream<ReaderEvent>
        private let session: ReaderSession
        private let bleOptions: BleOptions?
        /// The NFC carrier record of a tapped engagement, for NFC data retrieval.
        let nfcCarrier: NFCCarrier?
        private let configuration: Configuration
        private let feed: EventFeed<ReaderEvent>

        init(session: ReaderSession, bleOptions: BleOptions? = nil, nfcCarrier: NFCCarrier? = nil, configuration: Configuration) {
            self.session = session
            self.bleOptions = bleOptions
            self.nfcCarrier = nfcCarrier
            self.configuration = configuration
            (events, feed) = EventFeed.make()
        }

        /// The driver of the session, telling its events to ``events``.
        var driver: ReaderDriver {
            let feed = self.feed
            return ReaderDriver(
                session: session, bleOptions: bleOptions, timeouts: configuration.timeouts, termination: configuration.termination,
                logger: configuration.logger, events: { feed.yield($0) }, clock: configuration.clock)
        }

        /// The engagement the session reads.
        public var deviceEngagement: EmbeddedCBOR<DeviceEngagement> { session.deviceEngagement }

        /// Finds the mdoc over `radio` in a mode it offers (the configuration's preferred one
        /// when it offers it), within the connection bound, and runs the session to its end.
        public consuming func run(over radio: any MdocRadio) async -> ReaderVerdict {
            finish(await driver.run(over: radio, mode: configuration.preferredMode))
        }

        /// Runs the session on `transport`, a link to the mdoc on which the session started;
        /// the transport is closed when this returns.
        public consuming func run(on transport: any MdocTransport) async -> ReaderVerdict {
            finish(await driver.run(on: transport))
        }

        /// Ends ``events`` and says what came of the session that ended with `result`.
        consuming func finish(_ result: ReaderSessionResult) -> ReaderVerdict {
            feed.finish()
            return ReaderVerdict(result)
        }
    }
}
