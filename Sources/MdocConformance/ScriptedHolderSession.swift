import MdocCBOR
import MdocCrypto
import MdocModel
import MdocPresentation

/// The session a ``ReaderConformanceCase`` runs with the mdoc reader under test: the engagement
/// the holder shows, and how the holder departs on purpose from the session ISO/IEC 18013-5
/// 9.1.1 describes.
public struct ScriptedHolderSession: Sendable {
    /// What the holder does beside answering the request.
    public enum Departure: Sendable, Hashable {
        /// Nothing: the response as the holder builds it from what was asked.
        case none
        /// The last byte of the response's SessionData `data` (the AES-GCM tag) is altered, so
        /// that the ciphertext cannot be authenticated (9.1.1.5).
        case alteredCiphertext
        /// The salt (`random`) of every IssuerSignedItem is altered after issuance, so that no
        /// returned element matches its digest in the MSO (9.1.2.4) while IssuerAuth still
        /// verifies.
        case alteredDigests
        /// The response is encrypted with SKDevice under the message counter after the one
        /// 9.1.1.5 gives it (2 for the first response), as if a message had been skipped.
        case skippedMessageCounter
        /// The response is encrypted with SKReader, the reader's own key, instead of SKDevice
        /// (9.1.1.5), under the right counter and the mdoc's IV identifier.
        case encryptedWithSKReader
        /// The response's plaintext is the DeviceResponse cut one byte short, so that it
        /// decrypts but is not well-formed CBOR (9.1.1.4, status 11).
        case plaintextNotCBOR
        /// The response's SessionData carries its ciphertext under tag 24, `#6.24(bstr)`, where
        /// 9.1.1.4 gives `data` a bare bstr: the ciphertext as built under a tag the CDDL does not
        /// give it, which a reader that reads past tags decrypts as if it were the entry itself.
        case responseDataTagged
        /// The response is a DeviceResponse of version "1.0" with `status` and no document
        /// (8.3.2.1.2.3), encrypted as usual: an mdoc that reports an error.
        case responseStatus(DeviceResponse.Status)
        /// The response is the DeviceResponse as built with `version` in place of its "1.0"
        /// (8.3.2.1.2.2), everything else as built: of an unknown minor version, it is one a
        /// reader takes as it is (8.1).
        case responseVersion(String)
        /// The response is the DeviceResponse as built without its `status`, which 8.3.2.1.2.2
        /// requires: a response that does not follow the CDDL.
        case responseWithoutStatus
        /// Each IssuerSignedItemBytes of the response is the IssuerSignedItem's encoding as a
        /// bare byte string, without the tag 24 of `#6.24(bstr .cbor IssuerSignedItem)`
        /// (8.3.2.1.2.2), the rest as built.
        case issuerSignedItemsUntagged
        /// The holder presents, in place of its credentials, the runner's credentials whose
        /// document signer certificate has expired (``ReaderConformanceRunner/expiredSignerCredentials``),
        /// so that the chain a reader validates (9.3.3) fails while the MSO itself is valid.
        case expiredDocumentSigner
    }

    /// How the holder ends the session itself right after its response, as ISO/IEC 18013-5
    /// 9.1.1.4 allows either side to.
    public enum Ending: Sendable, Hashable {
        /// A SessionData of status 20, then BLE State 0x02.
        case status
        /// Status 20 in the very SessionData that carries the response, then BLE State 0x02.
        case statusBesideResponse
        /// BLE State 0x02 alone (8.3.3.1.1.5), no status.
        case state
        /// A SessionData of status 20 and nothing else: no State 0x02, the holder keeping its
        /// side of the link for the reader to close the channel (9.1.1.4).
        case statusLeavingChannel
        /// The link closed right after the response with neither a status nor State 0x02, as a
        /// lost connection ends it: the response is whole and authenticated all the same.
        case linkDrop
    }

    /// The curve of the engagement's EDeviceKey (9.1.5.2).
    public var eDeviceKeyCurve: Curve
    /// The DeviceEngagement's version (8.2.1.1): "1.0", or on purpose one with an unknown
    /// minor version, which a reader takes as it is (8.1).
    public var engagementVersion = "1.0"
    /// Entries the DeviceEngagement holds after the ones 18013-5 defines, with keys it leaves
    /// open (8.2.1.1: `* int => any`); empty for none.
    public var additionalEngagementEntries: CBORMap
    /// How the session departs from the usual one.
    public var departure: Departure
    /// How the holder sizes the BLE link: the ATT_MTU it takes in the Exchange MTU of
    /// 8.3.3.1.1.4 (its Server Rx MTU in mdoc peripheral server mode, its Client Rx MTU in
    /// central client mode) and the chunks of 8.3.3.1.1.6 it sends.
    public var link: ScriptedSession.Link = .standard
    /// How the holder ends the session right after its response; `nil`: it waits for the
    /// reader to end it.
    public var ending: Ending?

    /// A session with EDeviceKey on `eDeviceKeyCurve` and `additionalEngagementEntries` in its
    /// engagement, departing as `departure` says.
    public init(eDeviceKeyCurve: Curve = .p256, additionalEngagementEntries: CBORMap = CBORMap(), departure: Departure = .none) {
        self.eDeviceKeyCurve = eDeviceKeyCurve
        self.additionalEngagementEntries = additionalEngagementEntries
        self.departure = departure
    }

    /// A session as usual whose DeviceEngagement has the version `engagementVersion`.
    public init(engagementVersion: String) {
        self.init()
        self.engagementVersion = engagementVersion
    }

    /// A session as usual that the holder ends right after its response as `ending` says.
    public init(ending: Ending) {
        self.init()
        self.ending = ending
    }

    /// A session as usual over a BLE link sized as `link` says.
    public init(link: ScriptedSession.Link) {
        self.init()
        self.link = link
    }
}

extension ScriptedHolderSession.Ending {
    /// How the holder's driver ends the session.
    var holderEnding: HolderEnding {
        switch self {
        case .status: .status
        case .statusBesideResponse: .statusBesideResponse
        case .state: .state
        case .statusLeavingChannel: .statusLeavingChannel
        case .linkDrop: .linkDrop
        }
    }
}
