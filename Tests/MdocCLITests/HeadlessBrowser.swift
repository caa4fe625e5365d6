import Foundation
import Testing

/// A real browser from Debian's packages, run headless: `chromium-headless-shell`
/// (package chromium-headless-shell) or `chromium`, the first found on `PATH`. A test that opens
/// a page in it is skipped, saying so, where neither is installed (scripts/install-deps.sh
/// --test installs the first).
enum HeadlessBrowser {
    /// The names looked for on `PATH`, in order.
    static let names = ["chromium-headless-shell", "chromium"]

    /// The first of ``names`` on `PATH`; `nil` when none is installed.
    static let path: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in names {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }()

    /// Why a test that needs the browser is skipped.
    static let missing: Comment = "no headless browser installed (chromium-headless-shell or chromium on PATH): apt-get install chromium-headless-shell"

    /// The DOM of the page at `path` once it loaded and its scripts ran (`--dump-dom`), in a
    /// profile of its own that is removed afterwards.
    static func dumpDOM(of path: String) async throws -> ProgramRunner.Result {
        let browser = try #require(Self.path, missing)
        let profile = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        // --no-sandbox: the tests may run as root, where Chromium's sandbox refuses to start.
        return try await ProgramRunner.runTool(browser, [
            "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile)", "--dump-dom", URL(fileURLWithPath: path).absoluteString,
        ], timeout: 120)
    }
}
