import Logging
import MdocBLE
import MdocModel
import MdocSession

/// An mdoc holder (ISO/IEC 18013-5 9.1.1 over the BLE transport of 8.3.3.1.1): configured once
/// by a ``Configuration`` (the documents, the BLE modes to offer, who may ask and what is
/// released, bounds), it presents to one reader after another.
///
/// Every presentation is a new engagement with a new ephemeral device key (EDeviceKey,
/// 9.1.1.4): an ``Engagement`` is made for one reader, shows its QR code, and can run only once,
/// since it cannot be copied and running consumes it.
///
/// ```swift
/// let holder = MdocHolder(configuration: .init(credentials: [mDL], readerTrust: roots, consent: prompt))
/// let engagement = try holder.engagement()
/// show(engagement.uri)                          // the QR code (8.2.2.3)
/// let result = await engagement.run(over: radio)
/// ```
public struct MdocHolder: Sendable {
    /// Everything a holder needs to know before it presents.
    public struct Configuration: Sendable {
        /// The documents presented; at most one per document type is used.
        public var credentials: [Credential]
        /// The BLE modes and service UUIDs to offer; new UUIDs for each engagement when made by
        /// `BleOptions.offering(peripheralServerMode:centralClientMode:)` per engagement, so
        /// this is a function.
        public var bleOptions: @Sendable () -> BleOptions
        /// Who is asking: the reader authentication policy (9.1.4).
        public var readerTrust: any ReaderTrustDelegate
        /// What is released, asked once per request.
        public var consent: any HolderConsentDelegate
        /// How responses are built (the device authentication policy).
        public var responseBuilder: ResponseBuilder
        /// The bounds of each wait.
        public var timeouts: SessionTimeouts
        /// Whether the holder ends the session (status 20, then State 0x02) once a response is
        /// delivered, instead of waiting for the reader's next request or end.
        public var endsAfterResponse: Bool
        /// Where the BLE layers log.
        public var logger: Logger
        /// What the session bounds (``timeouts``, the wait for a reader included) are measured
        /// on; a test's own clock runs them in virtual time.
        public var clock: any Clock<Duration>

        /// A configuration presenting `credentials` in both BLE modes with new service UUIDs
        /// for each engagement, asking `readerTrust` who is asking and `consent` what to
        /// release; ``SessionTimeouts/holder``; the session stays open after a response for the
        /// reader to end.
        public init(
            credentials: [Credential],
            bleOptions: @escaping @Sendable () -> BleOptions = {
                .offering(peripheralServerMode: true, centralClientMode: true)
            },
            readerTrust: any ReaderTrustDelegate, consent: any HolderConsentDelegate,
            responseBuilder: ResponseBuilder = ResponseBuilder(), timeouts: SessionTimeouts = .holder,
            endsAfterResponse: Bool = false, logger: Logger = Logger(label: "mdoc.ble"),
            clock: any Clock<Duration> = ContinuousClock()
        ) {
            self.credentials = credentials
            self.bleOptions = bleOptions
            self.readerTrust = readerTrust
            self.consent = consent
            self.responseBuilder = responseBuilder
            self.timeouts = timeouts
            self.endsAfterResponse = endsAfterResponse
            self.logger = logger
            self.clock = clock
        }
    }

    /// How this holder presents.
    public var configuration: Configuration

    /// A holder configured by `configuration`.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// A new engagement with a new ephemeral device key, for one reader: show its ``Engagement/uri``
    /// and run it with ``Engagement/run(over:)``.
    ///
    /// - Throws: `SessionError` when the BLE options offer no usable mode.
    public func engagement() throws(SessionError) -> Engagement {
        let feed: EventFeed<HolderEvent>
        let events: AsyncStream<HolderEvent>
        (events, feed) = EventFeed.make()
        let driver = try HolderDriver(
            credentials: configuration.credentials, bleOptions: configuration.bleOptions(),
            responseBuilder: configuration.responseBuilder, trust: configuration.readerTrust, consent: configuration.consent,
            timeouts: configuration.timeouts, endsAfterResponse: configuration.endsAfterResponse,
            logger: configuration.logger, events: { feed.yield($0) }, clock: configuration.clock)
        return Engagement(driver: driver, events: events, feed: feed)
    }

    /// Presents over `radio` to the next reader in a new engagement: gives its `mdoc:` URI to
    /// `show` (to draw as a QR code) before waiting for the reader, and runs the session.
    ///
    /// - Throws: `SessionError` when the BLE options offer no usable mode (``engagement()``);
    ///   everything after that is in the result.
    public func present(
        over radio: any MdocRadio, showing show: @Sendable (MdocURI) -> Void
    ) async throws(SessionError) -> HolderSessionResult {
        let engagement = try engagement()
        show(engagement.uri)
        return await engagement.run(over: radio)
    }
}
