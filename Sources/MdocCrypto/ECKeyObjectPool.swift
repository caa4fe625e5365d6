import COpenSSL
import NIOConcurrencyHelpers

/// OpenSSL key objects of Weierstrass public keys, kept after use for the next public key on the
/// same curve.
///
/// In OpenSSL 3.0 a new `EVP_PKEY` costs more than the point it holds: `EVP_PKEY_dup` of the
/// curve's ``ECGroupTemplate`` copies the group and looks up the key type's legacy name among
/// every name of its key management (about 28,000 instructions for P-256), while
/// `EVP_PKEY_set1_encoded_public_key` on an existing key object of the curve replaces its point
/// and checks it as an import does (about 16,000). A verifier imports the MSO deviceKey of every
/// document it verifies and uses it for that document's mdoc authentication only
/// (ISO/IEC 18013-5 9.1.3), so ``PublicKey/withPublicKey(x:y:curve:_:)`` lends it an object
/// from here and takes the object back afterwards.
///
/// An object is changed only while nothing but the pool or the lending call references it: one
/// that is still referenced when it comes back (the public key lent was kept) is never reused,
/// and an object whose new point was refused is freed. ``EVPKey`` is otherwise never changed.
final class ECKeyObjectPool: Sendable {
    /// The pool of the process.
    static let shared = ECKeyObjectPool()

    /// The most objects kept per curve: as many as verifications running at once on the cores
    /// of a reader; beyond it, an object that comes back is freed.
    static let maximumKeptPerCurve = 8

    private let kept = NIOLockedValueBox<[Curve: [EVPKey]]>([:])

    /// A key object of `curve` holding the SEC1 point `point` (whose encoding the caller has
    /// checked): a kept one given the point, or a new one as ``EVPKey/weierstrassPublicKey(point:curve:)``
    /// makes it. The same errors as that.
    func take(point: [UInt8], curve: Curve) throws(CryptoError) -> EVPKey {
        guard let object = kept.withLockedValue({ $0[curve]?.popLast() }) else {
            return try EVPKey.weierstrassPublicKey(point: point, curve: curve)
        }
        // Not referenced elsewhere: it came back unique (``giveBack(_:curve:)``) and was taken
        // out under the lock.
        guard EVP_PKEY_set1_encoded_public_key(object.pointer, point, point.count) == 1 else {
            throw .openSSL(.invalidPoint, "the point is not on \(curve)")
        }
        return object
    }

    /// Keeps `object`, of `curve`, for ``take(point:curve:)`` when nothing else references it
    /// and fewer than ``maximumKeptPerCurve`` are kept; otherwise lets it go.
    func giveBack(_ object: inout EVPKey, curve: Curve) {
        guard isKnownUniquelyReferenced(&object) else { return }
        let unique = object
        kept.withLockedValue { kept in
            if kept[curve, default: []].count < Self.maximumKeptPerCurve {
                kept[curve, default: []].append(unique)
            }
        }
    }

    /// The number of objects kept for `curve`.
    func keptCount(for curve: Curve) -> Int {
        kept.withLockedValue { $0[curve]?.count ?? 0 }
    }
}
