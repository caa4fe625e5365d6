import MdocTestSupport
import Testing

/// A known, not yet understood failure: tpm2-openssl 1.1.1 (Debian 12) sometimes does not encode
/// a key it has just made in swtpm, so `mdoc-holder key generate --in tpm2:...` ends with status 7
/// and "tpm2-openssl did not encode the TPM key blob", with nothing in OpenSSL's error queue
/// (`OSSL_ENCODER_to_data` failed). Seen in about one run in five of TokenKeyGenerationTests on the
/// 2-core development machine, serialized or not, and in whole-suite runs; not in 48 runs of the
/// program alone, each against a fresh swtpm, four at a time beside two busy loops. Until its cause
/// is found, a test that meets it records it as a known issue and goes no further.
enum KnownTPMEncodingFailure {
    /// What the program says.
    static let message = "tpm2-openssl did not encode the TPM key blob"

    /// Whether `result` is that failure; it is recorded as the known issue when it is.
    static func met(in result: ProgramRunner.Result) -> Bool {
        guard result.status == 7, result.standardError.contains(message) else { return false }
        withKnownIssue("tpm2-openssl intermittently does not encode a TPM key it just made", isIntermittent: true) {
            Issue.record("\(result.standardError)")
        }
        return true
    }
}
