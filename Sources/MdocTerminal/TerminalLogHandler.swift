import Logging
import MdocCBOR
import MdocText

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The programs' swift-log handler: one line per record on standard error, in the layout of
/// swift-log's `StreamLogHandler` (`timestamp level label: metadata [source] message`), with the
/// message and every metadata key and value escaped when the line is written.
///
/// Log records carry what peers sent (device names, packet contents, error reasons quoting a
/// message), formatted by modules that cannot know where the text goes (MdocBLE imports no
/// other module), so the escaping happens here, once for every record. Nothing is cut: at
/// trace level a line holds a whole HCI packet, whose size the transport already bounds.
package struct TerminalLogHandler: LogHandler {
    private let label: String
    private let output: ProgramOutput

    /// The lowest level written.
    package var logLevel: Logger.Level = .info
    /// Metadata added to every record of this handler.
    package var metadata: Logger.Metadata = [:]
    /// Metadata added to every record when it is written.
    package var metadataProvider: Logger.MetadataProvider?

    /// A handler for the logger named `label`, writing to standard error.
    package init(label: String, metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider) {
        self.label = label
        self.output = .standardError
        self.metadataProvider = metadataProvider
    }

    /// One metadata item of this handler.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes `event` as one escaped line.
    package func log(event: LogEvent) {
        output.writeLine(Self.line(
            timestamp: Self.timestamp(), level: event.level, label: label,
            metadata: effectiveMetadata(event), source: event.source, message: event.message))
    }

    /// The line of one record: `timestamp level label: key=value ... [source] message`, keys
    /// sorted, everything but the layout escaped.
    package static func line(
        timestamp: String, level: Logger.Level, label: String, metadata: Logger.Metadata, source: String,
        message: Logger.Message
    ) -> TerminalText {
        var line: TerminalText = "\(unbounded(timestamp)) \(level.rawValue) \(unbounded(label)):"
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            line += " \(unbounded(key))=\(unbounded(value.description))"
        }
        return line + " [\(unbounded(source))] \(unbounded(message.description))"
    }

    /// The handler's metadata, then the provider's, then the record's (later ones win), and
    /// the record's error, as `StreamLogHandler` merges them.
    private func effectiveMetadata(_ event: LogEvent) -> Logger.Metadata {
        var merged = metadata
        if let provided = metadataProvider?.get() {
            merged.merge(provided) { _, provided in provided }
        }
        if let explicit = event.metadata {
            merged.merge(explicit) { _, explicit in explicit }
        }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        return merged
    }

    private static func unbounded(_ text: String) -> TerminalText {
        TerminalText(escaping: text, maximumLength: .max)
    }

    /// The local time as `StreamLogHandler` writes it (`%Y-%m-%dT%H:%M:%S%z`).
    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return "<unknown>" }
        var buffer = [Int8](repeating: 0, count: 64)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
