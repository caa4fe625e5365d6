import MdocCBOR
import MdocCrypto
import MdocModel

extension ReaderConformanceSuite {
    /// The key of the entry ``reader``'s `mDLR_Engagement_RFUKey` adds to the DeviceEngagement:
    /// one 18013-5 does not define (8.2.1.1 defines 0 to 4, later editions 5 and 6).
    public static let rfuEngagementKey: Int64 = 99

    /// The suite for an mdoc reader under test (`mdoc-holder test-reader --suite reader`): a
    /// well-formed response, responses whose encryption, SessionData (`data` under tag 24),
    /// plaintext, structure (no status, IssuerSignedItemBytes untagged) or issuer data is broken,
    /// responses reporting an error (status 10, 11, 12), from an expired document signer or of
    /// an unknown minor version, engagements with EDeviceKey on P-384, an RFU key or an unknown
    /// minor version, sessions the holder ends itself right after its response (9.1.1.4), once
    /// with status 20 alone for the reader to close the channel and once by dropping the link,
    /// and BLE links of the smallest and largest ATT_MTU, of short chunks and of a response that
    /// stalls before its last chunk (8.3.3.1.1.6). The
    /// holder answers whatever the reader asks with every element its credentials hold; the
    /// reader should ask for elements of a document the holder has (the demo mDL's, for
    /// instance).
    public static let reader = ReaderConformanceSuite(
        name: "reader",
        summary: "an mdoc reader under test: how it ends sessions and what it accepts of a response",
        cases: [
            ReaderConformanceCase(
                name: "mDLR_Response_WellFormed", clause: "8.3.2.1.2.2, 9.1.1.4",
                summary: "Answers the request with a well-formed response; the reader ends the session with status 20 or State 0x02.",
                session: ScriptedHolderSession(), expectation: .sessionStatus(.sessionTermination)),
            ReaderConformanceCase(
                name: "mDLR_Session_AlteredCiphertext", clause: "9.1.1.5, 9.1.1.4",
                summary: "Alters the authentication tag of the response's ciphertext; the reader ends the session with status 10.",
                session: ScriptedHolderSession(departure: .alteredCiphertext), expectation: .sessionStatus(.sessionEncryptionError)),
            ReaderConformanceCase(
                name: "mDLR_Session_SkippedCounter", clause: "9.1.1.5, 9.1.1.4",
                summary: "Encrypts the response under message counter 2 instead of 1; the reader ends the session with status 10.",
                session: ScriptedHolderSession(departure: .skippedMessageCounter), expectation: .sessionStatus(.sessionEncryptionError)),
            ReaderConformanceCase(
                name: "mDLR_Session_EncryptedWithSKReader", clause: "9.1.1.5, 9.1.1.4",
                summary: "Encrypts the response with SKReader instead of SKDevice; the reader ends the session with status 10.",
                session: ScriptedHolderSession(departure: .encryptedWithSKReader), expectation: .sessionStatus(.sessionEncryptionError)),
            ReaderConformanceCase(
                name: "mDLR_Response_NotCBOR", clause: "9.1.1.4",
                summary: "Sends a response that decrypts to a DeviceResponse cut one byte short; the reader ends the session with status 11 (CBOR decoding).",
                session: ScriptedHolderSession(departure: .plaintextNotCBOR), expectation: .sessionStatus(.cborDecodingError)),
            ReaderConformanceCase(
                name: "mDLR_Session_DataTagged", clause: "9.1.1.4",
                summary: "Sends the response's ciphertext under tag 24, where the SessionData CDDL gives data a bare bstr; the reader ends the session with status 10 or 11.",
                session: ScriptedHolderSession(departure: .responseDataTagged), expectation: .sessionError),
            malformedResponseCase(
                "mDLR_Response_MissingStatus", .responseWithoutStatus,
                what: "without its status, which the DeviceResponse CDDL requires", since: "it has no status"),
            malformedResponseCase(
                "mDLR_Response_IssuerSignedItemUntagged", .issuerSignedItemsUntagged,
                what: "each IssuerSignedItemBytes a bare byte string, without its tag 24", since: "its IssuerSignedItemBytes lack tag 24"),
            ReaderConformanceCase(
                name: "mDLR_Engagement_RFUKey", clause: "8.2.1.1, 9.1.5.1",
                summary: "Shows an engagement with an entry under a key 18013-5 does not define; the reader takes it as shown and ends the session with status 20 or State 0x02.",
                session: ScriptedHolderSession(additionalEngagementEntries: CBORMap([CBORMap.Entry(key: CBOR(rfuEngagementKey), value: .textString("RFU"))])),
                expectation: .engagementAccepted),
            ReaderConformanceCase(
                name: "mDLR_Engagement_UnknownMinorVersion", clause: "8.1, 8.2.1.1, 9.1.5.1",
                summary: "Shows an engagement of version \"\(ConformanceSuite.unknownMinorVersion)\", an unknown minor version; the reader takes it as shown and ends the session with status 20 or State 0x02.",
                session: ScriptedHolderSession(engagementVersion: ConformanceSuite.unknownMinorVersion), expectation: .engagementAccepted),
            ReaderConformanceCase(
                name: "mDLR_Engagement_EDeviceKeyP384", clause: "9.1.5.2, 9.1.1.4",
                summary: "Shows an engagement whose EDeviceKey is on P-384; the reader agrees keys on it and ends the session with status 20 or State 0x02.",
                session: ScriptedHolderSession(eDeviceKeyCurve: .p384), expectation: .sessionStatus(.sessionTermination)),
            ReaderConformanceCase(
                name: "mDLR_Response_UnknownMinorVersion", clause: "8.1, 8.3.2.1.2.2",
                summary: "Answers with the response as built but of version \"\(ConformanceSuite.unknownMinorVersion)\", an unknown minor version; the reader shows it verified (a person confirms).",
                session: ScriptedHolderSession(departure: .responseVersion(ConformanceSuite.unknownMinorVersion)),
                expectation: .confirmedByPerson(
                    question: "did the reader show the response verified, although its version is \(ConformanceSuite.unknownMinorVersion)?")),
            statusCase("mDLR_Response_StatusGeneralError", .generalError),
            statusCase("mDLR_Response_StatusCBORDecodingError", .cborDecodingError),
            statusCase("mDLR_Response_StatusCBORValidationError", .cborValidationError),
            ReaderConformanceCase(
                name: "mDLR_Response_DigestMismatch", clause: "9.1.2.4, 9.3.1",
                summary: "Returns elements whose digests do not match the MSO's; the reader shows that issuer data authentication failed (a person confirms).",
                session: ScriptedHolderSession(departure: .alteredDigests),
                expectation: .confirmedByPerson(question: "did the reader refuse the response because its data elements do not match their digests?")),
            ReaderConformanceCase(
                name: "mDLR_Response_ExpiredDocumentSigner", clause: "9.3.1, 9.3.3",
                summary: "Presents a document whose document signer certificate has expired while its MSO is valid; the reader shows that issuer data authentication failed (a person confirms).",
                session: ScriptedHolderSession(departure: .expiredDocumentSigner),
                expectation: .confirmedByPerson(question: "did the reader refuse the response because its document signer certificate has expired?")),
            terminationCase(
                "mDLR_Termination_MdocStatus", clause: "9.1.1.4", .status,
                "Ends the session itself right after its response, with a SessionData of status 20 and then State 0x02"),
            terminationCase(
                "mDLR_Termination_StatusBesideResponse", clause: "9.1.1.4", .statusBesideResponse,
                "Ends the session with status 20 in the very SessionData that carries its response, then State 0x02"),
            terminationCase(
                "mDLR_Termination_MdocState", clause: "9.1.1.4, 8.3.3.1.1.5", .state,
                "Ends the session right after its response with BLE State 0x02 alone, no status"),
            terminationCase(
                "mDLR_Termination_MdocDropsLink", clause: "9.1.1.4", .linkDrop,
                "Drops the link right after its response, with neither status 20 nor State 0x02, as a lost connection would"),
            ReaderConformanceCase(
                name: "mDLR_Termination_MdocStatusOnly", clause: "9.1.1.4",
                summary: "Ends the session right after its response with a SessionData of status 20 alone, no State 0x02, and keeps its "
                    + "side of the link; the reader closes the channel and sends nothing more.",
                session: ScriptedHolderSession(ending: .statusLeavingChannel), expectation: .closesChannelOnTermination),
            linkCase(
                "mDLR_BLE_MTU23", clause: "8.3.3.1.1.4, 8.3.3.1.1.6", .mtu(23),
                "The holder takes an ATT_MTU of 23; the reader writes its request in chunks of at most 20 octets, takes the response"),
            linkCase(
                "mDLR_BLE_MTU517", clause: "8.3.3.1.1.4, 8.3.3.1.1.6", .mtu(517),
                "The holder takes an ATT_MTU of up to 517; the reader cuts its chunks to fit the ATT_MTU agreed"),
            linkCase(
                "mDLR_BLE_ShortChunks", clause: "8.3.3.1.1.6", .chunksOfAtMost(20),
                "The holder sends its response in chunks of 20 octets whatever the ATT_MTU; the reader reassembles it"),
            linkCase(
                "mDLR_BLE_LastChunkOneOctet", clause: "8.3.3.1.1.6", .lastChunkOfOneOctet,
                "The holder's last chunk carries one octet of the response; the reader waits for it"),
            linkCase(
                "mDLR_BLE_PauseBeforeLastChunk", clause: "8.3.3.1.1.6", .pauseBeforeLastChunk,
                "The holder pauses 3 s before the last chunk of its response, which carries one octet; the reader waits for it"),
        ])

    /// The case named `name` whose holder sizes the BLE link as `link` says and answers as
    /// usual (`what`, the start of a sentence): the reader ends the session with status 20 or
    /// State 0x02.
    private static func linkCase(_ name: String, clause: String, _ link: ScriptedSession.Link, _ what: String) -> ReaderConformanceCase {
        ReaderConformanceCase(
            name: name, clause: clause, summary: "\(what), and ends the session with status 20 or State 0x02.",
            session: ScriptedHolderSession(link: link), expectation: .sessionStatus(.sessionTermination))
    }

    /// The case named `name` in which the holder ends the session as `ending` says right after
    /// a well-formed response (`what`, a sentence without its full stop): the reader keeps the
    /// response and shows it verified, which a person confirms.
    private static func terminationCase(
        _ name: String, clause: String, _ ending: ScriptedHolderSession.Ending, _ what: String
    ) -> ReaderConformanceCase {
        ReaderConformanceCase(
            name: name, clause: clause,
            summary: "\(what); the reader shows the response verified (a person confirms).",
            session: ScriptedHolderSession(ending: ending),
            expectation: .confirmedByPerson(question: "did the reader show the response verified, although the mdoc ended the session right after it?"))
    }

    /// The case named `name` answering with the response as built but `what` (8.3.2.1.2.2), as
    /// `departure` makes it: the reader refuses it as malformed, `since` saying why, which a
    /// person confirms.
    private static func malformedResponseCase(
        _ name: String, _ departure: ScriptedHolderSession.Departure, what: String, since: String
    ) -> ReaderConformanceCase {
        ReaderConformanceCase(
            name: name, clause: "8.3.2.1.2.2",
            summary: "Answers with the response as built but \(what); the reader refuses it as malformed (a person confirms).",
            session: ScriptedHolderSession(departure: departure),
            expectation: .confirmedByPerson(question: "did the reader refuse the response as malformed, since \(since)?"))
    }

    /// The case named `name` answering with a DeviceResponse of `status` and no document
    /// (8.3.2.1.2.3): the reader shows that the mdoc reported an error, which a person confirms.
    private static func statusCase(_ name: String, _ status: DeviceResponse.Status) -> ReaderConformanceCase {
        ReaderConformanceCase(
            name: name, clause: "8.3.2.1.2.3",
            summary: "Answers with a DeviceResponse of status \(status) and no document; the reader shows that the mdoc reported an error (a person confirms).",
            session: ScriptedHolderSession(departure: .responseStatus(status)),
            expectation: .confirmedByPerson(question: "did the reader show that the mdoc answered with status \(status) and no document?"))
    }
}
