import ArgumentParser
import MdocBLE
import MdocPresentation
import MdocSession

extension RequestPreset: ExpressibleByArgument {}

extension MdocBLEMode: ExpressibleByArgument {}

extension ReaderTermination: ExpressibleByArgument {}

/// `--retrieval`: how the messages of a tapped engagement go (ISO/IEC 18013-5 8.3.3.1).
enum Retrieval: String, ExpressibleByArgument, CaseIterable {
    /// Over BLE, in a mode the handover offers.
    case ble
    /// Over NFC, through the card that was tapped (8.3.3.1.2).
    case nfc
}
