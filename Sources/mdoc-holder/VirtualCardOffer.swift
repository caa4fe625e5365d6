import ArgumentParser
import MdocFiles
import MdocNFC
import MdocPCSC
import MdocPresentation
import MdocTerminal
import MdocText

/// `--nfc vpcd[:HOST:PORT]`: the holder also offers its engagement by NFC (ISO/IEC 18013-5
/// 8.2.2.1) as a virtual card in the reader of vsmartcard's vpcd, so that a reader through
/// pcscd (`mdoc-reader request --engagement nfc`, or a vendor's own PC/SC software) can tap it.
struct VirtualCardOffer: ExpressibleByArgument {
    /// Where vpcd listens for its card.
    let address: VirtualCard.Address

    /// `vpcd` or `vpcd:HOST:PORT`.
    init?(argument: String) {
        guard let address = try? VirtualCard.Address(parsing: argument) else { return nil }
        self.address = address
    }

    /// What ended a session that was also offered by NFC.
    private enum End {
        case session(HolderSessionResult)
        case card(VirtualCardError?)
    }

    /// The data retrieval application of the card (8.3.3.1.2), within what vpcd's frames carry.
    static func retrievalApplication() -> NFCDataTransferApplication {
        NFCDataTransferApplication(
            maximumCommandDataLength: NFCVirtualCardHandler.maximumCommandDataLength,
            maximumResponseDataLength: NFCVirtualCardHandler.maximumResponseDataLength)
    }

    /// Runs `session` while the card holds `tag` and `retrieval` in vpcd's reader. The card
    /// leaves (its connection closes, so pcscd sees it removed) when the session ends; vpcd
    /// closing the connection (the card taken out of the reader) leaves a session over BLE
    /// running, and a card that cannot reach vpcd ends it.
    func offering(
        _ tag: NDEFTagApplication, retrieval: NFCDataTransferApplication, _ mode: NFCHandoverMode,
        during session: @escaping @Sendable () async -> HolderSessionResult
    ) async throws(ProgramFailure) -> HolderSessionResult {
        let handler = NFCVirtualCardHandler(card: NFCCard(ndefApplication: tag, dataTransferApplication: retrieval))
        let address = address
        ProgramOutput.standardError.writeProgressLine(
            "mdoc-holder: offering the engagement by NFC (\(mode.rawValue) handover, then BLE or NFC data retrieval) as a card in vpcd's reader at \(address.description)")
        var cardFailure: VirtualCardError?
        let result = await withTaskGroup(of: End.self) { group in
            group.addTask { .session(await session()) }
            group.addTask {
                do throws(VirtualCardError) {
                    try await VirtualCard.run(address, atr: NFCVirtualCardHandler.answerToReset, handler: handler)
                    return .card(nil)
                } catch {
                    return .card(error)
                }
            }
            var result: HolderSessionResult?
            while let end = await group.next() {
                switch end {
                case .session(let ended):
                    result = ended
                    group.cancelAll()
                case .card(let failure?) where result == nil:
                    cardFailure = failure
                    group.cancelAll()
                case .card:
                    continue
                }
            }
            return result
        }
        if let cardFailure {
            throw ProgramFailure(
                .sessionFailed, "the virtual card failed: \(cardFailure)",
                hint: "vpcd comes with pcscd: `apt-get install pcscd vsmartcard-vpcd`, then restart pcscd")
        }
        guard let result else {
            throw ProgramFailure(.sessionFailed, "the session ended without a result")
        }
        return result
    }
}
