import Foundation
import FuzzSupport
import MdocCBOR
import MdocCrypto
import MdocStatusList

/// The draft-ietf-oauth-status-list example key (Vectors/token-status-list), which signed the
/// draft's example token.
private let exampleKey: PublicKey = {
    func coordinate(_ name: String) -> [UInt8] {
        let path = AnnexD.repositoryRoot + "/Vectors/token-status-list/example_key_\(name).hex"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let bytes = Hex.decode(text) else {
            fatalError("fuzz context missing: \(path)")
        }
        return bytes
    }
    guard let key = try? PublicKey(x: coordinate("x"), y: coordinate("y"), curve: .p256) else { fatalError("the example key does not load") }
    return key
}()

/// The key of the MACed seeds (make-corpus.py).
private let macKey = SymmetricKey(bytes: [UInt8](repeating: 0x5a, count: 32))
/// 2024-01-01T00:00:00Z, inside the example token's life.
private let time = Date(timeIntervalSince1970: 1_704_067_200)

/// A Status List Token from the network (draft-ietf-oauth-status-list sections 5.2 and 8.3):
/// decoded, validated with the example key (or the seeds' MAC key) for the example's uri, its
/// list read at 0, 1, the last index and one past it; the same bytes as an identifier list token
/// (ISO/IEC 18013-5 second edition 12.3.6), validated with the seeds' key, its identifiers
/// found in it and the list written back; and the input inflated as a zlib stream under the cap,
/// which the output must respect.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStatusListToken(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    if let token = try? StatusListToken(bytes: bytes) {
        precondition(token.bytes == bytes, "a token does not keep the bytes received")
        let list = token.statusList
        precondition(list.count == list.bytes.count * 8 / list.bits && StatusList.allowedBits.contains(list.bits))
        for key in [StatusListToken.Key.publicKey(exampleKey), .symmetric(macKey)] {
            _ = try? token.validate(uri: "https://example.com/statuslists/1", at: time, key: key)
        }
        let last = UInt64(max(list.count, 1) - 1)
        for index in [0, 1, last, last + 1] {
            if let value = try? list.value(at: index) {
                precondition(index < UInt64(list.count) && Int(value.rawValue) < 1 << list.bits)
            } else {
                precondition(index >= UInt64(list.count), "an index inside the list is refused")
            }
        }
    }
    if let token = try? IdentifierListToken(bytes: bytes) {
        precondition(token.bytes == bytes, "a token does not keep the bytes received")
        _ = try? token.validate(uri: "https://example.com/identifierlists/1", at: time, key: .symmetric(macKey))
        let list = token.identifierList
        for identifier in list.identifiers.prefix(4) {
            precondition(list.contains(identifier), "an identifier of the list is not found in it")
        }
        precondition((try? IdentifierList(cbor: list.cbor, at: .root))?.identifiers == list.identifiers, "a list does not read back as written")
    }
    if let inflated = try? ZlibInflater.inflate(bytes) {
        precondition(inflated.count <= StatusListLimits.decompressedBytes, "the inflater went past its cap")
    }
    return 0
}
