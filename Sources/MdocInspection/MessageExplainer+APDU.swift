import MdocCBOR
import MdocNFC
import MdocText

extension MessageExplainer {
    /// An APDU trace (ISO/IEC 7816-4 APDUs of NFC engagement and data retrieval, ISO/IEC
    /// 18013-5 8.2.2.1 and 8.3.3.1.2): each command named with its parameters, each response
    /// with its status word and how many data bytes came.
    package static func apduTrace(_ label: TerminalText, _ trace: APDUTrace) -> Explanation {
        let exchanges = trace.exchanges.enumerated().map { index, exchange in
            var lines = [Explanation("Command", "\(commandMeaning(exchange.command))", children: [
                Explanation.bytes("Bytes", exchange.command.bytes),
            ])]
            if let response = exchange.response {
                lines.append(Explanation("Response", "\(statusMeaning(response.statusWord)), \(response.data.count) data bytes"))
            } else {
                lines.append(Explanation("Response", "none: \(exchange.failure ?? "the exchange failed")"))
            }
            return Explanation("APDU \(index + 1)", children: lines)
        }
        return Explanation(label, "\(exchanges.count) command\(exchanges.count == 1 ? "" : "s")", children: exchanges)
    }

    /// What a command asks, by its instruction.
    static func commandMeaning(_ command: CommandAPDU) -> String {
        let chained = command.cla & CommandAPDU.chainingClass != 0 ? ", more of the chain follows" : ""
        let expected = command.expectedLength.map { ", Le \($0)" } ?? ""
        switch command.ins {
        case CommandAPDU.Instruction.select where command.p1 == 0x04:
            return "SELECT application \(applicationName(command.data))\(expected)"
        case CommandAPDU.Instruction.select where command.p1 == 0x00 && command.data.count == 2:
            let file = UInt16(command.data[0]) << 8 | UInt16(command.data[1])
            let name = file == CapabilityContainer.fileIdentifier ? " (capability container)"
                : file == NDEFTagApplication.ndefFileIdentifier ? " (NDEF file)" : ""
            return "SELECT file \(Hex.encode(command.data).uppercased())\(name)"
        case CommandAPDU.Instruction.readBinary:
            return "READ BINARY at offset \(command.p1p2)\(expected)"
        case CommandAPDU.Instruction.updateBinary:
            return "UPDATE BINARY at offset \(command.p1p2), \(command.data.count) bytes"
        case CommandAPDU.Instruction.envelope:
            return "ENVELOPE, \(command.data.count) bytes of a message in data object 53\(chained)\(expected)"
        case CommandAPDU.Instruction.getResponse:
            return "GET RESPONSE\(expected)"
        default:
            return "instruction \(Hex.encode([command.ins]).uppercased())\(chained)"
        }
    }

    /// The AIDs of 18013-5's two applications, named.
    static func applicationName(_ identifier: [UInt8]) -> String {
        let hex = Hex.encode(identifier).uppercased()
        switch identifier {
        case NDEFTagApplication.applicationIdentifier: return "\(hex) (NDEF Tag application, NFC engagement)"
        case NFCDataTransferReader.applicationIdentifier: return "\(hex) (mdoc data retrieval, 8.3.3.1.2)"
        default: return hex
        }
    }

    /// A status word and what ISO/IEC 7816-4 says it means.
    static func statusMeaning(_ status: StatusWord) -> String {
        if status.isBytesAvailable {
            return "\(status): \(status.sw2 == 0 ? "more than 255" : "\(status.sw2)") bytes left for GET RESPONSE"
        }
        let meaning: String
        switch status {
        case .success: meaning = "done"
        case .wrongLength: meaning = "wrong length"
        case .fileOrApplicationNotFound: meaning = "file or application not found (a locked phone answers this)"
        case .incorrectData: meaning = "incorrect data"
        case .incorrectParameters: meaning = "incorrect parameters"
        case .conditionsOfUseNotSatisfied: meaning = "conditions of use not satisfied"
        case .instructionNotSupported: meaning = "instruction not supported"
        case .classNotSupported: meaning = "class not supported"
        case .commandChainingNotSupported: meaning = "command chaining not supported"
        case .noPreciseDiagnosis: meaning = "failed, no precise diagnosis"
        default: meaning = "see ISO/IEC 7816-4 5.6"
        }
        return "\(status): \(meaning)"
    }
}
