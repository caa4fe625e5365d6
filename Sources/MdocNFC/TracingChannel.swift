/// A command channel that keeps a trace of what crosses it (``APDUTrace``): the commands, and
/// the responses or why none came. Every channel made with the same ``Recorder`` adds to one
/// trace, so that an engagement and the data retrieval after it form one.
public struct TracingChannel: NFCCommandChannel {
    /// Where the exchanges are kept; at most ``APDUTrace/maximumExchanges``, later ones dropped.
    public actor Recorder {
        /// The exchanges so far.
        public private(set) var trace = APDUTrace()

        /// An empty recorder.
        public init() {}

        func record(_ exchange: APDUTrace.Exchange) {
            guard trace.exchanges.count < APDUTrace.maximumExchanges else { return }
            trace.exchanges.append(exchange)
        }
    }

    /// The channel the commands go through.
    public let channel: any NFCCommandChannel
    /// Where they are kept.
    public let recorder: Recorder

    /// `channel`, traced into `recorder`.
    public init(_ channel: any NFCCommandChannel, recorder: Recorder) {
        self.channel = channel
        self.recorder = recorder
    }

    /// The wrapped channel's limit.
    public var maximumCommandDataLength: Int { channel.maximumCommandDataLength }
    /// The wrapped channel's limit.
    public var maximumResponseDataLength: Int { channel.maximumResponseDataLength }

    /// Sends `command` through the wrapped channel and keeps the exchange.
    public func transmit(_ command: CommandAPDU) async throws(NFCError) -> ResponseAPDU {
        do {
            let response = try await channel.transmit(command)
            await recorder.record(APDUTrace.Exchange(command: command, response: response))
            return response
        } catch {
            await recorder.record(APDUTrace.Exchange(command: command, response: nil, failure: "\(error)"))
            throw error
        }
    }
}
