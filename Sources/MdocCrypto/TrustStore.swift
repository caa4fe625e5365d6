import COpenSSL
import NIOConcurrencyHelpers

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Owns an OpenSSL `X509_STORE` holding trust anchors and runs RFC 5280 section 6.1 path
/// validation over it with `X509_verify_cert`.
///
/// The store is made and filled on the first verification (a validator whose paths
/// ``OneHopPathValidation`` establishes never decodes its anchors with `d2i_X509`) and then only
/// read; OpenSSL locks its lookups, so concurrent verifications are safe, which is why this class
/// is `@unchecked Sendable`.
final class TrustStore: @unchecked Sendable {
    /// One error OpenSSL reported through the verify callback.
    struct Error {
        /// The `X509_V_ERR_*` code.
        let code: Int32
        /// The certificate it concerns, when OpenSSL named one.
        let certificate: OpaquePointer?
    }

    /// What `X509_verify_cert` found.
    struct Outcome {
        /// The chain built, leaf first (borrowed pointers, alive while the inputs are).
        let chain: [OpaquePointer]
        /// Every error reported, in order; verification continues past each one.
        let errors: [Error]
    }

    private let anchors: [Certificate]
    /// The `X509_STORE`, once made.
    private let made = NIOLockedValueBox<OpaquePointer?>(nil)

    /// A store that will hold `anchors`. A store OpenSSL cannot allocate makes every
    /// verification fail.
    init(anchors: [Certificate]) {
        self.anchors = anchors
    }

    deinit {
        made.withLockedValue { store in
            if let store { X509_STORE_free(store) }
        }
    }

    /// The store, made and filled with the anchors on first use; `nil` when OpenSSL cannot
    /// allocate it.
    private var store: OpaquePointer? {
        made.withLockedValue { made in
            if let made { return made }
            guard let store = X509_STORE_new() else { return nil }
            for anchor in anchors {
                guard let handle = anchor.handle, X509_STORE_add_cert(store, handle.pointer) == 1 else {
                    ERR_clear_error()
                    continue
                }
            }
            made = store
            return store
        }
    }

    /// Builds and validates a path from `leaf` through `intermediates` to an anchor at `time`, in
    /// X.509 strict mode, allowing at most `maximumIntermediates` CA certificates between leaf
    /// and anchor. No purpose is set: the profile checks extended key usage itself.
    func verify(leaf: Certificate, intermediates: ArraySlice<Certificate>, at time: Date, maximumIntermediates: Int) -> Outcome {
        let untrustedHandles = intermediates.compactMap(\.handle)
        guard let leafHandle = leaf.handle, untrustedHandles.count == intermediates.count else {
            return Outcome(chain: [], errors: [Error(code: X509_V_ERR_UNSPECIFIED, certificate: nil)])
        }
        guard let store, let context = X509_STORE_CTX_new() else {
            return Outcome(chain: [], errors: [Error(code: X509_V_ERR_OUT_OF_MEM, certificate: nil)])
        }
        defer { X509_STORE_CTX_free(context) }
        guard let untrusted = OPENSSL_sk_new_null() else {
            return Outcome(chain: [], errors: [Error(code: X509_V_ERR_OUT_OF_MEM, certificate: nil)])
        }
        defer { OPENSSL_sk_free(untrusted) }
        for handle in untrustedHandles {
            _ = OPENSSL_sk_push(untrusted, UnsafeRawPointer(handle.pointer))
        }
        guard X509_STORE_CTX_init(context, store, leafHandle.pointer, untrusted) == 1 else {
            ERR_clear_error()
            return Outcome(chain: [], errors: [Error(code: X509_V_ERR_UNSPECIFIED, certificate: nil)])
        }
        let parameters = X509_STORE_CTX_get0_param(context)
        X509_VERIFY_PARAM_set_time(parameters, time_t(time.timeIntervalSince1970.rounded(.down)))
        X509_VERIFY_PARAM_set_depth(parameters, Int32(maximumIntermediates))
        X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_X509_STRICT))

        let collector = ErrorCollector()
        let unmanaged = Unmanaged.passRetained(collector)
        defer { unmanaged.release() }
        X509_STORE_CTX_set_ex_data(context, 0, unmanaged.toOpaque())
        X509_STORE_CTX_set_verify_cb(context, { ok, context in
            guard ok == 0, let context, let box = X509_STORE_CTX_get_ex_data(context, 0) else { return ok }
            let collector = Unmanaged<ErrorCollector>.fromOpaque(box).takeUnretainedValue()
            collector.errors.append(
                Error(code: X509_STORE_CTX_get_error(context), certificate: X509_STORE_CTX_get_current_cert(context))
            )
            return 1
        })
        let verified = X509_verify_cert(context)
        if verified != 1 && collector.errors.isEmpty {
            collector.errors.append(Error(code: X509_STORE_CTX_get_error(context), certificate: nil))
        }
        ERR_clear_error()

        var chain: [OpaquePointer] = []
        if let built = X509_STORE_CTX_get0_chain(context) {
            for index in 0..<max(OPENSSL_sk_num(built), 0) {
                if let certificate = OPENSSL_sk_value(built, index) {
                    chain.append(OpaquePointer(certificate))
                }
            }
        }
        return Outcome(chain: chain, errors: collector.errors)
    }

    /// OpenSSL's text for an `X509_V_ERR_*` code.
    static func message(_ code: Int32) -> String {
        String(cString: X509_verify_cert_error_string(Int(code)))
    }
}

/// Receives the errors of one `X509_verify_cert` call through the store context's app data.
private final class ErrorCollector {
    var errors: [TrustStore.Error] = []
}
