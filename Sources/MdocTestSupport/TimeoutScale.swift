import Foundation

/// How many times longer than usual a correct session may take: `MDOC_TEST_TIMEOUT_SCALE`, a
/// whole number, 1 when unset or not a positive number.
///
/// scripts/sanitizers.sh sets 3: under ThreadSanitizer the programs, the drivers and the peers in
/// the test process run several times slower, and a hostile peer was still setting up its link
/// when a 20 s stall bound ran out. Most timeouts
/// scaled are bounds a correct session ends well within, which cost no time when the tests pass;
/// the stall timeouts are waited out, so those tests take three times as long under sanitizers.
package enum TimeoutScale {
    /// The environment variable.
    package static let variable = "MDOC_TEST_TIMEOUT_SCALE"

    /// The factor, 1 unless the variable says otherwise.
    package static let factor: Int = {
        guard let text = ProcessInfo.processInfo.environment[variable], let value = Int(text), value > 0 else { return 1 }
        return value
    }()
}
