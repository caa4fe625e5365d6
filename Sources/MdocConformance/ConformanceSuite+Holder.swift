import MdocCBOR
import MdocModel
import MdocSession

extension ConformanceSuite {
    /// The version the cases of an unknown minor version give a DeviceRequest, a DeviceEngagement
    /// or a DeviceResponse: the major version 18013-5:2021 defines with a minor version no edition
    /// does, which whoever receives it must take without an error (8.1).
    public static let unknownMinorVersion = "1.9"
    /// The key of the entry `mDL_Request_UnknownKey` adds to a DeviceRequest of
    /// ``unknownMinorVersion``: one 8.3.2.1.2.1 does not define, as a later minor version may add
    /// (the second edition adds `deviceRequestInfo` and `readerAuthAll` under "1.1").
    public static let unknownRequestKey = "conformanceRFU"
    /// The requestInfo of `mDL_ReaderAuth_RequestInfo` (8.3.2.1.2.1, `{* tstr => any}`): under
    /// ``unknownRequestKey``, the float 1.5 (half precision, its preferred serialization) and the
    /// full-date 2026-11-30 (tag 1004, RFC 8943), values a decoder that maps them onto types of
    /// its own may well not encode again to the same octets.
    public static let requestInfoEntries = CBORMap([
        CBORMap.Entry(key: .textString(unknownRequestKey), value: .array([.float(1.5), .tagged(1004, .textString("2026-11-30"))])),
    ])

    /// The suite for an mdoc under test (`mdoc-reader test-holder --suite holder`): requests
    /// well-formed and not, or of an unknown minor version, sessions whose encryption or
    /// SessionEstablishment departs from ISO/IEC 18013-5 9.1.1, reader authentication that fails or must hold over the
    /// ItemsRequestBytes as sent (9.1.4), a session the reader ends with status 20 alone or
    /// State 0x02 alone, which the mdoc must close (9.1.1.4), a reader serving a wrong Ident
    /// (8.3.3.1.1.4), a reader's link lost before the session's start and taken up again
    /// (8.3.3.1.1.3), and BLE links of the smallest and largest ATT_MTU, of short chunks and of
    /// a request that stalls before its last chunk (8.3.3.1.1.6).
    /// The mdoc under test must hold an mDL (org.iso.18013.5.1.mDL) with `family_name` and
    /// `age_over_18`; the cases that expect a disclosure need a person to approve it, or a
    /// holder that approves on its own. The cases of reader authentication need the runner to
    /// sign its requests as a reader the mdoc trusts, and an mdoc that releases the mDL's
    /// elements to trusted readers only.
    public static let holder = ConformanceSuite(
        name: "holder",
        summary: "an mdoc under test: its answers to well-formed and malformed requests, to broken session encryption and SessionEstablishments, to reader authentication that fails or must hold over the request as sent, to a session the reader ends with status 20 or State 0x02 alone, and over BLE links of every size",
        cases: [
            ConformanceCase(
                name: "mDL_Request_WellFormed", clause: "8.3.2.1.2.1",
                summary: "Asks for family_name and age_over_18 of the mDL; the mdoc returns both, verified.",
                needsPerson: true, session: ScriptedSession(request: .built([HolderRequests.mDL(HolderRequests.asked)])),
                expectation: .verifiedResponse(docType: DocType.mDL, returned: HolderRequests.askedElements, withheld: [])),
            ConformanceCase(
                name: "mDL_Request_IntentToRetain", clause: "8.3.2.1.2.1",
                summary: "Asks for the same elements with IntentToRetain true; the mdoc still returns both, verified.",
                needsPerson: true,
                session: ScriptedSession(request: .built([HolderRequests.mDL(["family_name": true, "age_over_18": true])])),
                expectation: .verifiedResponse(docType: DocType.mDL, returned: HolderRequests.askedElements, withheld: [])),
            ConformanceCase(
                name: "mDL_Request_UnknownDocType", clause: "8.3.2.1.2.2",
                summary: "Asks only for a document type no mdoc holds; the mdoc answers with status 0 and no such document.",
                needsPerson: false,
                session: ScriptedSession(request: .built([
                    DocRequestSpec(docType: HolderRequests.unknownDocType, nameSpaces: [HolderRequests.unknownDocType: ["x": false]]),
                ])),
                expectation: .responseWithout(docType: HolderRequests.unknownDocType)),
            ConformanceCase(
                name: "mDL_Request_UnknownNameSpace", clause: "8.3.2.1.2.2",
                summary: "Asks for age_over_18 and an element of a name space the mDL has not; age_over_18 comes back, the other not.",
                needsPerson: true,
                session: ScriptedSession(request: .built([
                    DocRequestSpec(docType: DocType.mDL, nameSpaces: [
                        NameSpace.mDL: ["age_over_18": false], HolderRequests.unknownNameSpace: ["x": false],
                    ]),
                ])),
                expectation: .verifiedResponse(
                    docType: DocType.mDL, returned: [.init(NameSpace.mDL, "age_over_18")],
                    withheld: [.init(HolderRequests.unknownNameSpace, "x")])),
            ConformanceCase(
                name: "mDL_Request_UnknownElement", clause: "8.3.2.1.2.2",
                summary: "Asks for age_over_18 and an element the mDL name space does not define; age_over_18 comes back, the other not.",
                needsPerson: true,
                session: ScriptedSession(request: .built([HolderRequests.mDL(["age_over_18": false, HolderRequests.unknownElement: false])])),
                expectation: .verifiedResponse(
                    docType: DocType.mDL, returned: [.init(NameSpace.mDL, "age_over_18")],
                    withheld: [.init(NameSpace.mDL, HolderRequests.unknownElement)])),
            ConformanceCase(
                name: "mDL_Request_NotCBOR", clause: "8.3.2.1.2.3",
                summary: "Sends a DeviceRequest cut one byte short; the mdoc answers with status 11 (CBOR decoding error).",
                needsPerson: false, session: ScriptedSession(request: .given(Array(HolderRequests.wellFormed.dropLast()))),
                expectation: .responseStatus(.cborDecodingError)),
            ConformanceCase(
                name: "mDL_Request_MissingDocRequests", clause: "8.3.2.1.2.1, 8.3.2.1.2.3",
                summary: "Sends a DeviceRequest without docRequests; the mdoc answers with status 12 (CBOR validation error).",
                needsPerson: false, session: ScriptedSession(request: .given(HolderRequests.deviceRequest(version: .textString("1.0"), docRequests: nil))),
                expectation: .responseStatus(.cborValidationError)),
            ConformanceCase(
                name: "mDL_Request_EmptyDocRequests", clause: "8.3.2.1.2.1, 8.3.2.1.2.3",
                summary: "Sends a DeviceRequest whose docRequests is empty ([+ DocRequest] needs one); the mdoc answers with status 12.",
                needsPerson: false, session: ScriptedSession(request: .given(HolderRequests.deviceRequest(version: .textString("1.0"), docRequests: []))),
                expectation: .responseStatus(.cborValidationError)),
            ConformanceCase(
                name: "mDL_Request_VersionNotText", clause: "8.3.2.1.2.1, 8.3.2.1.2.3",
                summary: "Sends a DeviceRequest whose version is the integer 1, not a tstr; the mdoc answers with status 12.",
                needsPerson: false,
                session: ScriptedSession(request: .given(HolderRequests.deviceRequest(
                    version: .unsignedInt(1), docRequests: [HolderRequests.docRequest(itemsRequest: HolderRequests.taggedItemsRequest)]))),
                expectation: .responseStatus(.cborValidationError)),
            answeredCase(
                "mDL_Request_UnknownMinorVersion", clause: "8.1, 8.3.2.1.2.1", .requestVersion(unknownMinorVersion),
                "Sends the well-formed DeviceRequest with the version \"\(unknownMinorVersion)\", of an unknown minor version; the mdoc answers it as any other: both elements, verified."),
            answeredCase(
                "mDL_Request_UnknownKey", clause: "8.1, 8.3.2.1.2.1",
                .requestVersion(unknownMinorVersion, additionalEntries: CBORMap([CBORMap.Entry(key: .textString(unknownRequestKey), value: .textString("RFU"))])),
                "Sends the well-formed DeviceRequest with the version \"\(unknownMinorVersion)\" and an entry under the key \"\(unknownRequestKey)\", which a later minor version may define; the mdoc answers it as any other: both elements, verified."),
            ConformanceCase(
                name: "mDL_Request_ItemsRequestUntagged", clause: "8.3.2.1.2.1, 8.3.2.1.2.3",
                summary: "Sends ItemsRequestBytes as a byte string without tag 24; the mdoc answers with status 12.",
                needsPerson: false,
                session: ScriptedSession(request: .given(HolderRequests.deviceRequest(
                    version: .textString("1.0"), docRequests: [HolderRequests.docRequest(itemsRequest: HolderRequests.untaggedItemsRequest)]))),
                expectation: .responseStatus(.cborValidationError)),
            ConformanceCase(
                name: "mDL_Session_AlteredCiphertext", clause: "9.1.1.5, 9.1.1.4",
                summary: "Alters the authentication tag of SessionEstablishment's ciphertext; the mdoc ends the session with status 10.",
                needsPerson: false,
                session: ScriptedSession(request: .built([HolderRequests.mDL(HolderRequests.asked)]), departure: .alteredCiphertext),
                expectation: .sessionStatus(.sessionEncryptionError)),
            ConformanceCase(
                name: "mDL_Session_ReplayedCiphertext", clause: "9.1.1.5, 9.1.1.4",
                summary: "After the response, sends the request's ciphertext again under a used reader counter; the mdoc ends the session with status 10.",
                needsPerson: true,
                session: ScriptedSession(request: .built([HolderRequests.mDL(HolderRequests.asked)]), departure: .replayedCiphertext),
                expectation: .sessionStatus(.sessionEncryptionError)),
            ConformanceCase(
                name: "mDL_Session_EReaderKeyOtherCurve", clause: "9.1.5.2, 9.1.1.4",
                summary: "Sends an EReaderKey on another curve than EDeviceKey; no key agreement is possible and the mdoc ends the session with status 10.",
                needsPerson: false,
                session: ScriptedSession(request: .built([HolderRequests.mDL(HolderRequests.asked)]), departure: .eReaderKeyOnOtherCurve),
                expectation: .sessionStatus(.sessionEncryptionError)),
            establishmentCase(
                "mDL_Session_EstablishmentWithoutEReaderKey", .establishmentWithout(.eReaderKey),
                "Sends SessionEstablishment without its eReaderKey entry (the reader's EReaderKey, from which the session keys are derived)"),
            establishmentCase(
                "mDL_Session_EstablishmentWithoutData", .establishmentWithout(.data),
                "Sends SessionEstablishment without its data entry (the encrypted DeviceRequest)"),
            establishmentCase(
                "mDL_Session_EReaderKeyUntagged", .establishmentRetagged(.eReaderKey),
                "Sends SessionEstablishment with EReaderKeyBytes as a bare byte string, without the tag 24 of #6.24(bstr .cbor EReaderKey)"),
            establishmentCase(
                "mDL_Session_EstablishmentDataTagged", .establishmentRetagged(.data),
                "Sends SessionEstablishment with its data, the encrypted DeviceRequest, under tag 24, where the CDDL gives a bare bstr"),
            readerAuthCase(
                "mDL_ReaderAuth_OtherSessionTranscript", .readerAuthOverOtherTranscript,
                "Signs ReaderAuth over the SessionTranscript of another session"),
            readerAuthCase("mDL_ReaderAuth_AlteredSignature", .readerAuthSignatureAltered, "Alters the last byte of ReaderAuth's signature"),
            readerAuthCase(
                "mDL_ReaderAuth_UntrustedReader", .readerAuthByUntrustedReader,
                "Signs ReaderAuth as a reader whose certificate chains to a root the mdoc does not trust, that root included in x5chain"),
            readerAuthCase(
                "mDL_ReaderAuth_ExpiredReaderCertificate", .readerAuthByExpiredReader,
                "Signs ReaderAuth as a reader whose certificate chains to a root the mdoc trusts but has expired"),
            answeredCase(
                "mDL_ReaderAuth_RequestInfo", clause: "9.1.4, 8.3.2.1.2.1", .requestInfo(requestInfoEntries),
                "Signs an ItemsRequest whose requestInfo holds an entry no edition defines, a half-precision float and a tagged full-date; the mdoc, which releases the elements to a trusted reader only, authenticates the reader over the ItemsRequestBytes as sent and returns both elements, verified."),
            terminationCase(
                "mDL_Termination_ReaderStatusOnly", clause: "9.1.1.4", .terminationByStatusOnly,
                "SessionData of status 20 alone, without State 0x02"),
            terminationCase(
                "mDL_Termination_ReaderStateOnly", clause: "8.3.3.1.1.5, 9.1.1.4", .terminationByStateOnly,
                "BLE State 0x02 alone, without SessionData of status 20"),
            ConformanceCase(
                name: "mDL_BLE_WrongIdent", clause: "8.3.3.1.1.4",
                summary: "In mdoc central client mode, serves an Ident other than the one derived from EDeviceKeyBytes; the mdoc leaves without starting the session (the case lasts the connection timeout).",
                needsPerson: false,
                session: ScriptedSession(request: .built([HolderRequests.mDL(HolderRequests.asked)]), departure: .identAltered),
                expectation: .sessionNotStarted),
            ConformanceCase(
                name: "mDL_BLE_LinkLostBeforeStart", clause: "8.3.3.1.1.3, 8.3.3.1.1.4",
                summary: "In mdoc peripheral server mode, connects, subscribes and drops the link before writing State 0x01, then connects again; the mdoc takes the second link and returns both elements, verified.",
                needsPerson: true,
                session: ScriptedSession(request: .built([HolderRequests.mDL(HolderRequests.asked)]), departure: .linkLostBeforeStart),
                expectation: .verifiedResponse(docType: DocType.mDL, returned: HolderRequests.askedElements, withheld: [])),
            linkCase(
                "mDL_BLE_MTU23", clause: "8.3.3.1.1.4, 8.3.3.1.1.6", .mtu(23),
                "The reader takes an ATT_MTU of 23; the mdoc returns both elements, verified, in chunks of at most 20 octets."),
            linkCase(
                "mDL_BLE_MTU517", clause: "8.3.3.1.1.4, 8.3.3.1.1.6", .mtu(517),
                "The reader takes an ATT_MTU of up to 517; the mdoc returns both elements, verified, in chunks that fit the ATT_MTU agreed."),
            linkCase(
                "mDL_BLE_ShortChunks", clause: "8.3.3.1.1.6", .chunksOfAtMost(20),
                "The reader writes its request in chunks of 20 octets whatever the ATT_MTU; the mdoc reassembles it and returns both elements, verified."),
            linkCase(
                "mDL_BLE_LastChunkOneOctet", clause: "8.3.3.1.1.6", .lastChunkOfOneOctet,
                "The reader's last chunk carries one octet of the request; the mdoc waits for it and returns both elements, verified."),
            linkCase(
                "mDL_BLE_PauseBeforeLastChunk", clause: "8.3.3.1.1.6", .pauseBeforeLastChunk,
                "The reader pauses 3 s before the last chunk of its request, which carries one octet; the mdoc waits for it and returns both elements, verified."),
        ])

    /// The case named `name` sending the well-formed request's elements as `departure` makes it:
    /// the mdoc answers it as any other, both elements returned and verified (a person approves).
    private static func answeredCase(
        _ name: String, clause: String, _ departure: ScriptedSession.Departure, _ summary: String
    ) -> ConformanceCase {
        ConformanceCase(
            name: name, clause: clause, summary: summary, needsPerson: true,
            session: ScriptedSession(request: .built([HolderRequests.mDL(HolderRequests.asked)]), departure: departure),
            expectation: .verifiedResponse(docType: DocType.mDL, returned: HolderRequests.askedElements, withheld: []))
    }

    /// The case named `name` whose SessionEstablishment departs from the CDDL of 9.1.1.4 as
    /// `departure` makes it (`what`, a sentence without its full stop): the mdoc gets no session
    /// key or no request from it and ends the session with status 10 or 11.
    private static func establishmentCase(_ name: String, _ departure: ScriptedSession.Departure, _ what: String) -> ConformanceCase {
        ConformanceCase(
            name: name, clause: "9.1.1.4",
            summary: "\(what); the mdoc ends the session with status 10 or 11 and sends no response.",
            needsPerson: false,
            session: ScriptedSession(request: .built([HolderRequests.mDL(HolderRequests.asked)]), departure: departure),
            expectation: .sessionError)
    }

    /// The case named `name` asking for the well-formed request's elements with a reader
    /// authentication that fails as `departure` makes it fail (9.1.4; `what`, the start of a
    /// sentence): the mdoc, which releases the elements to a trusted reader only, discloses none.
    private static func readerAuthCase(_ name: String, _ departure: ScriptedSession.Departure, _ what: String) -> ConformanceCase {
        ConformanceCase(
            name: name, clause: "9.1.4",
            summary: "\(what); the mdoc, which releases the elements to a trusted reader only, discloses none.", needsPerson: false,
            session: ScriptedSession(request: .built([HolderRequests.mDL(HolderRequests.asked)]), departure: departure),
            expectation: .noDisclosure(docType: DocType.mDL))
    }

    /// The case named `name` in which, after the response to the well-formed request (a person
    /// approves it), the reader terminates the session by `means` alone, as `departure` does,
    /// and leaves the link up: the mdoc closes the channel and sends nothing more (9.1.1.4).
    private static func terminationCase(
        _ name: String, clause: String, _ departure: ScriptedSession.Departure, _ means: String
    ) -> ConformanceCase {
        ConformanceCase(
            name: name, clause: clause,
            summary: "After the response, terminates the session with \(means), and leaves the link up; the mdoc closes the channel and sends nothing more.",
            needsPerson: true,
            session: ScriptedSession(request: .built([HolderRequests.mDL(HolderRequests.asked)]), departure: departure),
            expectation: .closesChannelOnTermination)
    }

    /// The case named `name` asking for the well-formed request's elements over a BLE link the
    /// reader sizes as `link`: the mdoc returns both, verified (a person approves).
    private static func linkCase(_ name: String, clause: String, _ link: ScriptedSession.Link, _ summary: String) -> ConformanceCase {
        ConformanceCase(
            name: name, clause: clause, summary: summary, needsPerson: true,
            session: ScriptedSession(request: .built([HolderRequests.mDL(HolderRequests.asked)]), link: link),
            expectation: .verifiedResponse(docType: DocType.mDL, returned: HolderRequests.askedElements, withheld: []))
    }
}
