import Logging
import MdocBLE
import MdocPresentation

/// Opens the radio `spec` names (the system's default when `nil`: ``TransportSpec/systemDefault()``),
/// runs `body` with it, and closes it on every path: when `body` returns, throws, or its task is
/// cancelled. A radio serves any number of sessions, one after another or side by side.
///
/// ```swift
/// let verdict = try await withRadio(.sim) { radio in
///     try await reader.read(uri, over: radio)
/// }
/// ```
///
/// - Parameters:
///   - spec: the bearer (8.3.3.1.1 over docs/architecture.md section 4's transports).
///   - btsnoop: a file every HCI packet is written to, for `hci:` transports.
///   - logger: where the bearer logs.
///   - body: what to do with the radio.
/// - Throws: `LinkError.Code.unavailable` when the radio cannot be opened, with what to do;
///   otherwise what `body` throws.
public func withRadio<Result: Sendable>(
    _ spec: TransportSpec? = nil, btsnoop: String? = nil, logger: Logger = Logger(label: "mdoc.hci"),
    _ body: (any MdocRadio) async throws -> Result
) async throws -> Result {
    let resolved: TransportSpec
    if let spec {
        resolved = spec
    } else {
        resolved = await TransportSpec.systemDefault()
    }
    let radio = try await resolved.open(btsnoop: btsnoop, logger: logger)
    let result: Swift.Result<Result, any Error>
    do {
        result = .success(try await body(radio))
    } catch {
        result = .failure(error)
    }
    await radio.close()
    return try result.get()
}
