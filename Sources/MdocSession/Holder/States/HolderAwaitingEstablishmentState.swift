import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel

/// The mdoc showed its engagement and waits for the reader's SessionEstablishment (ISO/IEC
/// 18013-5 9.1.1.4): it holds EDeviceKey, and the DeviceEngagementBytes and Handover the
/// transcript is built from.
struct HolderAwaitingEstablishmentState: Sendable {
    /// DeviceEngagementBytes, as shown in the QR code or the NFC Handover Select.
    let deviceEngagement: EmbeddedCBOR<DeviceEngagement>
    /// The ephemeral device key of this engagement.
    let eDeviceKey: PrivateKey
    /// How the engagement happened (9.1.5.1): QR until an NFC engagement says otherwise.
    var handover: Handover = .qr

    /// What SessionEstablishment gives the mdoc.
    struct Established: Sendable {
        /// The session bound to `[DeviceEngagementBytes, EReaderKeyBytes, Handover]` (9.1.5.1).
        var session: EstablishedSession
        /// The reader's ephemeral key, for DeviceMac (9.1.3.5).
        let eReaderKey: PublicKey
        /// The encrypted DeviceRequest SessionEstablishment carries.
        let sealedRequest: [UInt8]
    }

    /// Reads SessionEstablishment: the transcript from EReaderKeyBytes as received, and the
    /// session keys derived once from it (9.1.1.5). Fails with
    /// `SessionError.Code.messageDecodingFailed` for another message and
    /// `SessionError.Code.keyDerivationFailed` for a key that cannot agree with EDeviceKey.
    func establish(_ message: [UInt8]) throws(SessionError) -> Established {
        let establishment: SessionEstablishment
        do {
            establishment = try SessionEstablishment(encoded: message)
        } catch {
            throw SessionError(.messageDecodingFailed, "the first message is not SessionEstablishment: \(error)")
        }
        let transcript = SessionTranscriptBinding(SessionTranscript(
            deviceEngagementBytes: deviceEngagement, eReaderKeyBytes: establishment.eReaderKey, handover: handover))
        let eReaderKey: PublicKey
        let keys: SessionKeys
        do {
            eReaderKey = try establishment.eReaderKey.value.publicKey()
            keys = try SessionKeys(privateKey: eDeviceKey, peerPublicKey: eReaderKey, sessionTranscriptBytes: transcript.taggedBytes)
        } catch {
            throw SessionError(.keyDerivationFailed, "no session keys from EReaderKey: \(error)")
        }
        return Established(
            session: EstablishedSession(role: .mdoc, keys: keys, transcript: transcript), eReaderKey: eReaderKey,
            sealedRequest: establishment.data)
    }
}
