import Foundation

/// How many times longer than usual a correct session may take: `MDOC_TEST_TIMEOUT_SCALE`, a
/// whole number, 1 when unset or not a positive number.
///
/// scripts/sanitizers.sh sets 3: under ThreadSanitizer the programs and the peers in the test
/// process run several times slower, and with the whole link fault suite in parallel on two
/// cores a 4 MiB flood over `sim` took longer than the usual 30 s `--timeout`, and a hostile
/// peer was still setting up its link when a program's 20 s stall timeout ran out. Most timeouts
/// scaled are bounds a correct session ends well within, which cost no time when the tests pass;
/// the stall timeouts are waited out, so those tests take three times as long under sanitizers.
enum TimeoutScale {
    static let variable = "MDOC_TEST_TIMEOUT_SCALE"

    static let factor: Int = {
        guard let text = ProcessInfo.processInfo.environment[variable], let value = Int(text), value > 0 else { return 1 }
        return value
    }()
}
