import MdocCBOR
import MdocCOSE
import MdocCrypto
@testable import MdocFiles
@testable import MdocInspection
import MdocModel
import MdocSession
import MdocTestSupport
import MdocText
import Testing


import Foundation

/// `mdoc inspect --explain`: every message type the toolkit knows and every Annex D vector
/// explained without a fallback to raw bytes where a structure is known, and peer text escaped.
@Suite struct MessageExplainerTests {
    /// Annex D vectors that are bytes of no structure: keys, secrets, a MAC tag and ciphertexts.
    static let unstructured: Set<String> = [
        "EMacKey", "SKDevice", "SKReader", "device_mac_tag", "eDeviceKey_private", "eDeviceKey_public_x",
        "eDeviceKey_public_y", "eReaderKey_private", "eReaderKey_public_x", "eReaderKey_public_y", "emac_shared_secret_zab",
        "sDeviceKey_private", "sDeviceKey_public_x", "sDeviceKey_public_y", "session_data_response_ciphertext",
        "session_establishment_ciphertext", "session_shared_secret_zab",
    ]

    /// What an explanation writes when it falls back to bytes or notation for something whose
    /// structure it should know.
    static let fallbacks = [
        "Does not decode", "not an NDEF message", "not a certificate", "not well-formed CBOR", "Payload, not",
        "AD type 0x", "\nCBOR data item", "Not a ", "As CBOR", "Other entries",
    ]

    /// Every Annex D vector file, by name without its extension.
    static let vectorNames: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: Vectors.path("iso18013-5-annex-d"))) ?? []
        return files.filter { $0.hasSuffix(".hex") || $0.hasSuffix(".txt") }.sorted()
    }()

    static func content(_ file: String) throws -> InspectedContent {
        try InspectedContent(InputSource.load(Vectors.path("iso18013-5-annex-d/\(file)")))
    }

    @Test func thereAreAnnexDVectorsToExplain() {
        #expect(Self.vectorNames.count >= 50)
    }

    @Test(arguments: vectorNames)
    func everyAnnexDVectorIsExplainedOrNamedAsBytesOfNoStructure(_ file: String) throws {
        let name = String(file.prefix { $0 != "." })
        guard !Self.unstructured.contains(name) else {
            #expect(throws: InputError.self) { try Self.content(file) }
            return
        }
        let text = try Self.content(file).explanation.rendered().description
        for marker in Self.fallbacks {
            #expect(!text.contains(marker), "\(file): \(marker)")
        }
        // No byte string in diagnostic notation longer than a protected header.
        #expect(text.range(of: "h'[0-9a-f]{17,}", options: .regularExpression) == nil, "\(file)")
        // No line of hex longer than one wrapped line of bytes.
        let longest = text.split(separator: "\n").map { line in
            line.split(separator: " ").map { word in word.allSatisfy(\.isHexDigit) ? word.count : 0 }.max() ?? 0
        }.max() ?? 0
        #expect(longest <= 2 * Explanation.hexBytesPerLine, "\(file)")
    }

    @Test func theDeviceEngagementNamesItsKeyAndBLEModes() throws {
        let text = try Self.content("device_engagement.hex").explanation.rendered().description
        #expect(text.contains("Cipher suite: 1 (ECDH or ECDHE, HKDF with SHA-256, AES-256-GCM; 9.1.5.2)"))
        #expect(text.contains("crv (-1): 1 (P-256)"))
        #expect(text.contains("mdoc peripheral server mode: not supported"))
        #expect(text.contains("mdoc central client mode: supported"))
        #expect(text.contains("Central client mode service UUID: 45EFEF74-2B2C-4837-A9A3-B0E1D05A6917"))
    }

    @Test func theDeviceRequestShowsIntentToRetainAndTheReaderCertificateProfile() throws {
        let text = try Self.content("device_request.hex").explanation.rendered().description
        #expect(text.contains("portrait (Portrait): intent to retain: no"))
        #expect(text.contains("family_name (Family name): intent to retain: yes"))
        #expect(text.contains("Subject: CN=reader"))
        #expect(text.contains("1.0.18013.5.1.6: id-mdl-kp-mdlReaderAuth"))
        #expect(text.contains("Annex B profile, mdoc reader authentication: fits"))
        #expect(text.contains("Payload: null: detached"))
    }

    @Test func theDeviceResponseShowsTheMSOAndTheDocumentSigner() throws {
        let text = try Self.content("device_response.hex").explanation.rendered().description
        #expect(text.contains("MobileSecurityObject (18013-5 9.1.2.4)"))
        #expect(text.contains("Valid until: 2021-10-01T13:30:02Z"))
        #expect(text.contains("Digest ID 12: 651f8736b18480fe252a03224ea087b5d10ca5485146c67c74ac4ec3112d4c3a"))
        #expect(text.contains("Value: JPEG image, 1042 bytes"))
        #expect(text.contains("Value: 2019-10-20 (full-date, tag 1004)"))
        #expect(text.contains("Annex B profile, document signer: fits"))
        #expect(text.contains("DeviceMac: COSE_Mac0 with EMacKey (9.1.3.5)"))
    }

    @Test func theDemoPKIFitsItsProfilesAndAStrayLeafIsCheckedForBothRoles() throws {
        for (file, fit) in [("iaca.pem", "IACA or mdoc reader root: fits"), ("ds.pem", "document signer: fits"),
                            ("reader-root.pem", "IACA or mdoc reader root: fits"), ("reader.pem", "mdoc reader authentication: fits")] {
            let content = try InspectedContent(InputSource.load(Vectors.repositoryRoot + "/Certs/demo/" + file))
            #expect(content.explanation.rendered().description.contains("Annex B profile, \(fit)"), "\(file)")
        }
        let root = CertificateBuilder(
            profile: .iaca, subject: .init(commonName: "root", country: "US"), notValidBefore: Date(timeIntervalSince1970: 0),
            notValidAfter: Date(timeIntervalSince1970: 86_400 * 365), issuerAlternativeName: .uri("https://x.example"),
            crlDistributionPoint: "https://x.example/crl")
        let key = try PrivateKey(generating: .p256)
        let iaca = try root.selfSigned(key: key)
        var leafBuilder = root
        leafBuilder.profile = .documentSigner
        leafBuilder.subject = .init(commonName: "leaf", country: "US")
        leafBuilder.extendedKeyUsageOIDs = ["1.3.6.1.5.5.7.3.1"]
        let leaf = try leafBuilder.issued(for: PrivateKey(generating: .p256).publicKey, by: iaca, signingKey: key)
        let text = InspectedContent.certificates([leaf]).explanation.rendered().description
        #expect(text.contains("Annex B profile, document signer: does NOT fit"))
        #expect(text.contains("Annex B profile, mdoc reader authentication: does NOT fit"))
        #expect(text.contains("1.3.6.1.5.5.7.3.1: TLS Web Server Authentication"))
    }

    @Test func aCredentialFileNeverShowsThePrivateKey() throws {
        let bytes = try InputSource.load(Vectors.repositoryRoot + "/Certs/demo/mdl.mdoc").bytes
        let credential = try Credential(encoded: bytes)
        let d = Hex.encode(COSEKey(privateKey: credential.deviceKey).d ?? [])
        let text = try InspectedContent(InputSource(bytes: bytes, encoding: .binary, name: "mdl.mdoc")).explanation.rendered().description
        #expect(text.hasPrefix("credential (swift-mdoc credential file)"))
        #expect(text.contains("d (-4): present: this is a private key (not shown)"))
        #expect(!text.contains(d))
    }

    @Test func privateKeysAreRedactedWhereverTheyAre() throws {
        let key = COSEKey(privateKey: try PrivateKey(generating: .p256))
        let d = try #require(key.d)
        let secret: [UInt8] = Array(repeating: 0x5a, count: 32)
        var symmetric = CBORMap()
        symmetric[int: 1] = 4
        symmetric[int: -1] = .byteString(CBORBytes(secret))
        let item = CBOR.array([
            .map(CBORMap([.init(key: "deviceKey", value: key.cbor)])),
            .tagged(CBOR.Tag.encodedCBOR, .byteString(CBORBytes(key.cbor.encoded()))),
            .map(symmetric),
        ])
        #expect(item.holdsPrivateKey)
        let redacted = item.redactingPrivateKeys()
        #expect(!redacted.holdsPrivateKey)
        for text in [redacted.diagnosticNotation(expandEmbedded: true), redacted.losslessJSON.serialized(),
                     MessageExplainer.explain(redacted).rendered().description] {
            #expect(!text.contains(Hex.encode(d)) && !text.contains(Base64URL.encode(d)), "\(text)")
            #expect(!text.contains(Hex.encode(secret)) && !text.contains(Base64URL.encode(secret)), "\(text)")
            #expect(text.contains(Hex.encode(key.x)) || text.contains(Base64URL.encode(key.x)), "the public key stays: \(text)")
        }
        #expect(redacted.diagnosticNotation(expandEmbedded: true).contains(#"-4: "private key, not shown""#))
        let explained = MessageExplainer.coseKey(key.cbor.redactingPrivateKeys()).map { $0.rendered().description }.joined()
        #expect(explained.contains("d (-4): present: this is a private key (not shown)"))
        #expect(explained.contains("Usable: yes, a P-256 private key (its d not shown, so not checked)"))
        #expect(MessageExplainer.coseKey(.map(symmetric).redactingPrivateKeys()).map { $0.rendered().description }.joined()
            .contains("k (-1): present: this is a secret key (not shown)"))
    }

    @Test func aCredentialFileShowsThePrivateKeyWhenAsked() throws {
        let bytes = try InputSource.load(Vectors.repositoryRoot + "/Certs/demo/mdl.mdoc").bytes
        let d = Hex.encode(try #require(COSEKey(privateKey: Credential(encoded: bytes).deviceKey).d))
        let source = InputSource(bytes: bytes, encoding: .binary, name: "mdl.mdoc")
        let text = try InspectedContent(source, showingPrivateKeys: true).explanation.rendered().description
        #expect(text.contains("d (-4): \(d)"))
        #expect(text.contains("Usable: yes, a P-256 private key\n"))
    }

    @Test func peerTextIsEscapedInExplanations() throws {
        let forgery = "\u{1B}[2J\u{1B}[HVERIFIED\u{202E}"
        var elements = OrderedMap<String, Bool>()
        elements["family_name\(forgery)"] = true
        var nameSpaces = OrderedMap<String, OrderedMap<String, Bool>>()
        nameSpaces["ns\(forgery)"] = elements
        let request = DeviceRequest(docRequests: [
            DocRequest(itemsRequest: EmbeddedCBOR(ItemsRequest(docType: "mDL\(forgery)", nameSpaces: nameSpaces)))
        ])
        let text = MessageExplainer.explain(request.cbor).rendered().description
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\u{202E}"))
        #expect(text.contains("\\u{1B}[2J"))
    }

    @Test func aStructureThatDoesNotDecodeIsNamedWithItsPathAndStillShown() throws {
        let broken: CBOR = ["version": "1.0", "docRequests": [["itemsRequest": 7]]]
        let text = MessageExplainer.explain(broken).rendered().description
        #expect(text.hasPrefix("DeviceRequest (18013-5 8.3.2.1.2.1)"))
        #expect(text.contains("Does not decode as DeviceRequest"))
        #expect(text.contains("docRequests[0]"))
        #expect(text.contains("\"itemsRequest\": 7"))
    }

    @Test func longByteStringsWrapAtTheLineWidth() {
        let exact = Explanation.bytes("b", [UInt8](repeating: 1, count: Explanation.hexBytesPerLine))
        #expect(exact.children.isEmpty)
        let longer = Explanation.bytes("b", [UInt8](repeating: 1, count: Explanation.hexBytesPerLine + 1))
        #expect(longer.value?.description == "\(Explanation.hexBytesPerLine + 1) bytes")
        #expect(longer.children.map { $0.label.description.count } == [2 * Explanation.hexBytesPerLine, 2])
    }

    @Test func rawBytesOfNoStructureAreRefusedWithWhatWasTried() throws {
        do {
            _ = try InspectedContent(InputSource(bytes: Vectors.annexD("SKReader"), encoding: .hex, name: "SKReader.hex"))
            Issue.record("32 random bytes were recognised")
        } catch {
            #expect(error.code == .unsupportedContent)
            #expect(error.reason.contains("not well-formed CBOR"))
            #expect(error.reason.contains("nor an X.509 certificate, an NDEF message, a JWS or an image"))
        }
    }
}
