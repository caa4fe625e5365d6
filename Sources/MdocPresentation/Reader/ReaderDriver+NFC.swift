import MdocNFC

extension ReaderDriver {
    /// Runs the session over NFC data retrieval (ISO/IEC 18013-5 8.3.3.1.2) with `reader`:
    /// selects the mdoc application, then sends each message through it until the session
    /// ends. A card that does not answer the SELECT ends it as a link failure (`nfc`).
    package func run(overNFC reader: NFCDataTransferReader) async -> ReaderSessionResult {
        do throws(NFCError) {
            try await reader.select()
        } catch {
            return ReaderSessionResult(
                end: .link(LinkError(.nfc, "the mdoc application did not answer over NFC: \(error)")), mode: nil, report: nil,
                response: nil)
        }
        return await run(on: NFCReaderTransport(reader: reader))
    }
}
