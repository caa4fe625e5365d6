import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel

/// mdoc authentication (ISO/IEC 18013-5 9.1.3): the DeviceSignature verifies with the MSO
/// deviceKey (9.1.3.6), or the DeviceMac with EMacKey derived from the reader's ephemeral key
/// and the deviceKey (9.1.3.5), over the DeviceAuthenticationBytes of this session.
///
/// Without the session transcript the check is recorded as not made, and so is a DeviceMac
/// without the reader's key: the document is then not verified, whatever else passed.
public struct DeviceAuthenticationPolicy: DocumentVerifierPolicy {
    /// The policy.
    public init() {}

    /// Records the ``VerificationCheck/Kind/deviceAuthentication`` check, when the MSO decodes.
    public func evaluate(_ verification: inout DocumentVerification) {
        guard let decoded = verification.decodedMobileSecurityObject() else { return }
        let mso = decoded.value
        let deviceSigned = verification.document.deviceSigned
        switch deviceSigned.deviceAuth {
        case .deviceSignature: verification.deviceAuthenticationMethod = .signature
        case .deviceMac: verification.deviceAuthenticationMethod = .mac
        }
        verification.record(Self.check(mso, verification))
    }

    private static func check(_ mso: MobileSecurityObject, _ verification: DocumentVerification) -> VerificationCheck {
        guard let sessionTranscript = verification.sessionTranscript else {
            return VerificationCheck(.deviceAuthentication, subject: .deviceAuth, outcome: .skipped("no session transcript was given"))
        }
        // The key serves this check alone: its OpenSSL object is lent and reused after.
        do {
            return try mso.deviceKeyInfo.deviceKey.withPublicKey { deviceKey in
                check(deviceKey, sessionTranscript, verification)
            }
        } catch {
            return VerificationCheck(
                .deviceAuthentication, subject: .deviceAuth, outcome: .failed(.unusableDeviceKey, "the MSO deviceKey is unusable: \(error)"))
        }
    }

    private static func check(
        _ deviceKey: PublicKey, _ sessionTranscript: SessionTranscriptBinding, _ verification: DocumentVerification
    ) -> VerificationCheck {
        let deviceSigned = verification.document.deviceSigned
        let payload = sessionTranscript.deviceAuthenticationBytes(
            docType: verification.document.docType, deviceNameSpacesBytes: deviceSigned.nameSpaces)
        switch deviceSigned.deviceAuth {
        case .deviceSignature(let signature):
            if let mismatch = attachedPayloadMismatch(signature.payload, expected: payload, in: "DeviceSignature") {
                return mismatch
            }
            let algorithm = signature.algorithm.map { "\($0)" } ?? "no algorithm"
            return signature.isValidSignature(publicKey: deviceKey, detachedPayload: signature.payload == nil ? payload : nil)
                ? VerificationCheck(
                    .deviceAuthentication, subject: .deviceAuth, outcome: .passed,
                    detail: "DeviceSignature \(algorithm) by the MSO deviceKey" + attachedPayloadNote(signature.payload))
                : VerificationCheck(
                    .deviceAuthentication, subject: .deviceAuth,
                    outcome: .failed(.invalidSignature, "the DeviceSignature (\(algorithm)) does not verify with the MSO deviceKey over this session's DeviceAuthenticationBytes"))
        case .deviceMac(let mac):
            if let mismatch = attachedPayloadMismatch(mac.payload, expected: payload, in: "DeviceMac") {
                return mismatch
            }
            guard let readerKey = verification.readerKey else {
                return VerificationCheck(
                    .deviceAuthentication, subject: .deviceAuth, outcome: .skipped("DeviceMac needs the reader's ephemeral private key (EReaderKey)"))
            }
            let eMacKey: SymmetricKey
            do {
                eMacKey = try EMacKey.derive(privateKey: readerKey, peerPublicKey: deviceKey, sessionTranscriptBytes: sessionTranscript.taggedBytes)
            } catch {
                return VerificationCheck(
                    .deviceAuthentication, subject: .deviceAuth,
                    outcome: .failed(.macKeyDerivationFailed, "EMacKey cannot be derived from the reader key and the MSO deviceKey: \(error)"))
            }
            return mac.isValidTag(key: eMacKey, detachedPayload: mac.payload == nil ? payload : nil)
                ? VerificationCheck(
                    .deviceAuthentication, subject: .deviceAuth, outcome: .passed,
                    detail: "DeviceMac HMAC 256/256 with EMacKey" + attachedPayloadNote(mac.payload))
                : VerificationCheck(
                    .deviceAuthentication, subject: .deviceAuth,
                    outcome: .failed(.invalidMAC, "the DeviceMac does not verify: wrong reader key, another session's transcript, or altered data"))
        }
    }

    /// 9.1.3.5 and 9.1.3.6 send DeviceAuthenticationBytes detached: the COSE payload is null
    /// (RFC 9052 section 4.1) and the reader supplies the bytes it expects. Some mdocs attach
    /// them instead; an attached payload is verified as it stands only when it is
    /// byte-identical to the DeviceAuthenticationBytes of this session. Any other is the
    /// failure returned here, which names the payload, not the signature or MAC.
    private static func attachedPayloadMismatch(_ attached: CBORBytes?, expected: [UInt8], in name: String) -> VerificationCheck? {
        guard let attached, attached != CBORBytes(expected) else { return nil }
        let common = min(attached.count, expected.count)
        let difference = (0..<common).first { attached[$0] != expected[$0] } ?? common
        return VerificationCheck(
            .deviceAuthentication, subject: .deviceAuth,
            outcome: .failed(
                .payloadMismatch,
                "the \(name) carries an attached payload of \(attached.count) bytes that is not this session's DeviceAuthenticationBytes (\(expected.count) bytes, first difference at byte \(difference)); 9.1.3 sends the payload detached, as null"))
    }

    /// The note a passed check carries when the payload was attached (and so identical to the
    /// DeviceAuthenticationBytes expected).
    private static func attachedPayloadNote(_ attached: CBORBytes?) -> String {
        attached == nil ? "" : "; note: the payload is attached, not detached as 9.1.3 requires, and byte-identical to this session's DeviceAuthenticationBytes"
    }
}
