import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocPresentation
import MdocSession
import MdocTestSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Session establishment and encryption (ISO/IEC 18013-5 9.1.1), SessionData status codes in
/// both directions (Table 20), DeviceResponse status codes (8.3.2.1.2.3) and what a response
/// says about documents and elements it does not return, between a real ``HolderSession`` and
/// a real ``ReaderSession`` wired in memory.
extension NegativeCorpus {
    /// A holder with a generated mDL credential and a reader asking it for `request` (family_name
    /// by default), trusting the same generated PKI.
    static func pair(_ request: [DocRequestSpec] = [mDLRequest(["family_name"])]) throws -> SessionPair {
        let pki = try TestPKI()
        return try SessionPair(credentials: [try TestCredentials.mDL(pki: pki)], request: request, issuerAnchors: [pki.iaca])
    }

    /// A request for `identifiers` of `nameSpace` in `docType`.
    static func mDLRequest(
        _ identifiers: [String], nameSpace: String = NameSpace.mDL, docType: String = DocType.mDL
    ) -> DocRequestSpec {
        var elements = OrderedMap<String, Bool>()
        for identifier in identifiers { elements[identifier] = false }
        return DocRequestSpec(docType: docType, nameSpaces: [nameSpace: elements])
    }

    /// The session keys both sides of `pair` derived, rebuilt here from EReaderKey.
    static func keys(_ pair: SessionPair) throws -> SessionKeys {
        let eDeviceKey = try pair.holder.deviceEngagement.value.security.eDeviceKeyBytes.value.publicKey()
        return try SessionKeys(
            privateKey: pair.eReaderKey, peerPublicKey: eDeviceKey, sessionTranscriptBytes: pair.reader.sessionTranscript.taggedBytes)
    }

    /// `plaintext` encrypted as `role` would with its message counter at `counter`.
    static func sealed(_ plaintext: [UInt8], by role: SessionRole, counter: UInt32, in pair: SessionPair) throws -> [UInt8] {
        var encryption = SessionEncryption(role: role, keys: try keys(pair), sendCounter: counter, receiveCounter: 1)
        return try encryption.encrypt(plaintext)
    }

    /// What a holder action reports.
    static func rejection(_ action: HolderAction) -> Rejection {
        switch action {
        case .sendAndFinish(let message, let outcome): return Rejection(outcome, sent: message)
        case .finished(let outcome): return Rejection(outcome, sent: nil)
        case .send, .requestReceived: return .notRejected("the holder went on: \(action)")
        }
    }

    /// What a reader action reports.
    static func rejection(_ action: ReaderAction) -> Rejection {
        switch action {
        case .sendAndFinish(let message, let outcome): return Rejection(outcome, sent: message)
        case .finished(let outcome): return Rejection(outcome, sent: nil)
        case .received(let report, _): return .response(report)
        case .send: return .notRejected("the reader went on: \(action)")
        }
    }

    /// The SessionEstablishment of `pair`'s reader with `eReaderKey` in place of its own.
    static func establishment(_ pair: inout SessionPair, eReaderKey: EmbeddedCBOR<COSEKey>) throws -> [UInt8] {
        guard case .send(let message) = try pair.reader.start() else { throw TestDataError("the reader did not start") }
        let real = try SessionEstablishment(encoded: message)
        return SessionEstablishment(eReaderKey: eReaderKey, data: real.data).encoded()
    }

    /// What a reader reports when it starts a session with the mdoc that showed `engagement`.
    static func readerStart(_ engagement: DeviceEngagement) -> Rejection {
        do throws(SessionError) {
            _ = try ReaderSession(engagement: EmbeddedCBOR(engagement), request: [mDLRequest(["family_name"])], trustAnchors: [], now: { Date() })
            return .notRejected("the reader started a session")
        } catch {
            return .session(error.code, sent: nil)
        }
    }

    /// Starts `pair`, approves everything asked, and returns the holder's response message.
    static func firstResponse(_ pair: inout SessionPair) throws -> [UInt8] {
        guard case .requestReceived(let request) = try pair.start(),
              case .send(let response) = pair.holder.decide(.all(requestedIn: request.deviceRequest))
        else { throw TestDataError("the session did not reach its first response") }
        return response
    }

    static var sessionEstablishment: [NegativeCase] {
        [
            NegativeCase("SessionEstablishment that is not CBOR", .session(.messageDecodingFailed, sent: .cborDecodingError)) {
                var pair = try pair()
                return rejection(pair.holder.receive([0xff, 0x00, 0x13]))
            },
            NegativeCase("EReaderKey whose point is not on P-256", .session(.keyDerivationFailed, sent: .sessionEncryptionError)) {
                var pair = try pair()
                return rejection(pair.holder.receive(try establishment(&pair, eReaderKey: offCurveKey())))
            },
            NegativeCase("EReaderKey on P-384 while EDeviceKey is on P-256", .session(.keyDerivationFailed, sent: .sessionEncryptionError)) {
                var pair = try pair()
                let other = EmbeddedCBOR(COSEKey(publicKey: try PrivateKey(generating: .p384).publicKey))
                return rejection(pair.holder.receive(try establishment(&pair, eReaderKey: other)))
            },
            NegativeCase("EReaderKey on X25519 while EDeviceKey is on P-256", .session(.keyDerivationFailed, sent: .sessionEncryptionError)) {
                var pair = try pair()
                let other = EmbeddedCBOR(COSEKey(publicKey: try PrivateKey(generating: .x25519).publicKey))
                return rejection(pair.holder.receive(try establishment(&pair, eReaderKey: other)))
            },
            NegativeCase("engagement with an unknown cipher suite (2)", .session(.unsupportedCipherSuite, sent: nil)) {
                let key = EmbeddedCBOR(COSEKey(publicKey: try PrivateKey(generating: .p256).publicKey))
                return readerStart(DeviceEngagement(security: Security(cipherSuiteIdentifier: .init(rawValue: 2), eDeviceKeyBytes: key)))
            },
            NegativeCase("engagement whose EDeviceKey is not on its curve", .session(.invalidEngagement, sent: nil)) {
                readerStart(DeviceEngagement(security: Security(eDeviceKeyBytes: try offCurveKey())))
            },
        ]
    }

    static var sessionEncryption: [NegativeCase] {
        [
            NegativeCase("SessionData counter replayed to the holder (the first request again)", .session(.decryptionFailed, sent: .sessionEncryptionError)) {
                var pair = try pair()
                _ = try firstResponse(&pair)
                let first = try SessionEstablishment(encoded: pair.readerSent[0])
                return rejection(pair.toHolder(SessionData(data: first.data).encoded()))
            },
            NegativeCase("SessionData counter skipped to the holder (3 after 1)", .session(.decryptionFailed, sent: .sessionEncryptionError)) {
                var pair = try pair()
                _ = try firstResponse(&pair)
                let request = DeviceRequest(docRequests: [DocRequest(itemsRequest: EmbeddedCBOR(mDLRequest(["age_over_18"]).itemsRequest))])
                return rejection(pair.toHolder(SessionData(data: try sealed(request.encoded(), by: .reader, counter: 3, in: pair)).encoded()))
            },
            NegativeCase("SessionData counter replayed to the reader (the first response again)", .session(.decryptionFailed, sent: .sessionEncryptionError)) {
                var pair = try pair()
                let response = try firstResponse(&pair)
                _ = pair.toReader(response)
                _ = try pair.reader.request([mDLRequest(["age_over_18"])])
                return rejection(pair.toReader(response))
            },
            NegativeCase("SessionData counter skipped to the reader (2 before 1)", .session(.decryptionFailed, sent: .sessionEncryptionError)) {
                var pair = try pair()
                _ = try pair.start()
                let response = DeviceResponse(status: .ok)
                return rejection(pair.toReader(SessionData(data: try sealed(response.encoded(), by: .mdoc, counter: 2, in: pair)).encoded()))
            },
            NegativeCase("DeviceResponse replayed from another session to the reader", .session(.decryptionFailed, sent: .sessionEncryptionError)) {
                var earlier = try pair()
                let replayed = try firstResponse(&earlier)
                var current = try pair()
                _ = try current.start()
                return rejection(current.toReader(replayed))
            },
            NegativeCase("SessionEstablishment replayed from another session to the holder", .session(.decryptionFailed, sent: .sessionEncryptionError)) {
                var earlier = try pair()
                _ = try earlier.start()
                var current = try pair()
                return rejection(current.holder.receive(earlier.readerSent[0]))
            },
            NegativeCase("SessionData ciphertext with one bit flipped", .session(.decryptionFailed, sent: .sessionEncryptionError)) {
                var pair = try pair()
                var response = try SessionData(encoded: try firstResponse(&pair))
                response.data?[5] ^= 0x20
                return rejection(pair.toReader(response.encoded()))
            },
            NegativeCase("SessionData with neither data nor status", .session(.unexpectedMessage, sent: .sessionTermination)) {
                var pair = try pair()
                _ = try firstResponse(&pair)
                return rejection(pair.toHolder(SessionData().encoded()))
            },
            NegativeCase("a message to the reader that is not SessionData", .session(.messageDecodingFailed, sent: .cborDecodingError)) {
                var pair = try pair()
                _ = try pair.start()
                return rejection(pair.toReader(CBOR.array([1, 2]).encoded()))
            },
        ]
    }

    static var statusCodes: [NegativeCase] {
        var cases: [NegativeCase] = []
        // SessionData status (Table 20) in both directions: 10 and 11 are errors, 12 is no
        // SessionData status at all, and 20 is the normal end they are set against.
        for status: UInt64 in [10, 11, 12, 20] {
            let message = SessionData(status: SessionData.Status(rawValue: status)).encoded()
            let error = Rejection.session(.peerReportedError, sent: nil)
            cases.append(NegativeCase(
                "SessionData status \(status) from the reader to the holder", status == 20 ? .ended(.terminatedByReader) : error
            ) {
                var pair = try pair()
                _ = try firstResponse(&pair)
                return rejection(pair.toHolder(message))
            })
            cases.append(NegativeCase(
                "SessionData status \(status) from the holder to the reader", status == 20 ? .ended(.terminatedByHolder) : error
            ) {
                var pair = try pair()
                _ = try pair.start()
                return rejection(pair.toReader(message))
            })
        }
        // DeviceResponse status (8.3.2.1.2.3): the holder's answer to requests it cannot read.
        for (name, plaintext, status) in [
            ("a DeviceRequest that is not CBOR", [0xff, 0xff] as [UInt8], DeviceResponse.Status.cborDecodingError),
            ("a DeviceRequest that is CBOR but no DeviceRequest", CBOR.array([1, 2, 3]).encoded(), .cborValidationError),
        ] {
            cases.append(NegativeCase("DeviceResponse status \(status.rawValue) answers \(name)", .response(status, notReturned: [:])) {
                var pair = try pair()
                let establishment = try SessionEstablishment(
                    eReaderKey: pair.reader.eReaderKeyBytes, data: sealed(plaintext, by: .reader, counter: 1, in: pair))
                _ = try pair.reader.start()
                guard case .send(let response) = pair.toHolder(establishment.encoded()) else {
                    return .notRejected("the holder did not answer")
                }
                return rejection(pair.toReader(response))
            })
        }
        cases.append(NegativeCase("DeviceResponse status 10 (general error) reaches the reader", .response(.generalError, notReturned: [:])) {
            var pair = try pair()
            _ = try pair.start()
            let response = DeviceResponse(status: .generalError)
            return rejection(pair.toReader(SessionData(data: try sealed(response.encoded(), by: .mdoc, counter: 1, in: pair)).encoded()))
        })
        return cases
    }

    static var requestsAndResponses: [NegativeCase] {
        [
            NegativeCase("an unknown doc type is requested", .response(.ok, notReturned: ["org.example.unknown.1": 0])) {
                var pair = try pair([mDLRequest(["family_name"], nameSpace: "org.example.unknown", docType: "org.example.unknown.1")])
                return rejection(pair.toReader(try firstResponse(&pair)))
            },
            NegativeCase("a requested name space is missing from the credential",
                         .response(.ok, notReturned: ["\(DocType.mDL)/\(NameSpace.aamva)/DHS_compliance": 0])) {
                var pair = try pair([
                    mDLRequest(["family_name"]), mDLRequest(["DHS_compliance"], nameSpace: NameSpace.aamva),
                ])
                return rejection(pair.toReader(try firstResponse(&pair)))
            },
            NegativeCase("a requested element is missing from the credential",
                         .response(.ok, notReturned: ["\(DocType.mDL)/\(NameSpace.mDL)/resident_city": 0])) {
                var pair = try pair([mDLRequest(["family_name", "resident_city"])])
                return rejection(pair.toReader(try firstResponse(&pair)))
            },
            NegativeCase("every requested element is refused", .response(.ok, notReturned: [DocType.mDL: 0])) {
                var pair = try pair()
                guard case .requestReceived = try pair.start(), case .send(let response) = pair.holder.decide(.none) else {
                    return .notRejected("the holder did not answer")
                }
                return rejection(pair.toReader(response))
            },
        ]
    }
}
