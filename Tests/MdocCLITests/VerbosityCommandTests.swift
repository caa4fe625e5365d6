import Foundation
import MdocTestSupport
import Testing

/// `-q`/`--quiet` and `-v`/`--verbose` of the live-session commands (`VerbosityOptions`): quiet
/// leaves the result and nothing of the progress, verbose adds the BLE layers' debug records,
/// and both at once are a usage error.
@Suite struct VerbosityCommandTests {
    static let trust = ["--trust", "Certs/demo/iaca.pem"]

    @Test func quietLeavesTheResultAndNoProgressOnEitherSide() async throws {
        let session = try await LiveSession(holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes", "--quiet"])
        let reader = try await session.request(["--preset", "driving", "-q"] + Self.trust)
        let holder = await session.holder.wait(timeout: LiveSession.waitTimeout)

        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(holder.status == 0, "\(holder.standardError)")
        #expect(reader.standardOutput.contains("Document 0: org.iso.18013.5.1.mDL: VERIFIED"), "\(reader.standardOutput)")
        for progress in ["connecting to", "connected (ATT MTU", "request sent", "response received", "verifying"] {
            #expect(!reader.standardError.contains(progress), "\(progress): \(reader.standardError)")
        }
        for progress in ["waiting for a reader", "reader connected", "sending"] {
            #expect(!holder.standardError.contains(progress), "\(progress): \(holder.standardError)")
        }
    }

    @Test func withoutAFlagTheProgressIsShownAndVerboseAddsDebugRecords() async throws {
        let session = try await LiveSession(holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes", "-v"])
        let reader = try await session.request(["--preset", "driving"] + Self.trust)
        let holder = await session.holderResult(after: reader)

        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(holder.status == 0, "\(holder.standardError)")
        #expect(reader.standardError.contains("mdoc-reader: connecting to"), "\(reader.standardError)")
        #expect(reader.standardError.contains("mdoc-reader: verifying"), "\(reader.standardError)")
        // The holder is verbose and the reader is not: only the holder logs at debug.
        #expect(holder.standardError.contains("mdoc-holder: waiting for a reader"), "\(holder.standardError)")
        #expect(holder.standardError.contains(" debug "), "\(holder.standardError)")
        #expect(!reader.standardError.contains(" debug "), "\(reader.standardError)")
    }

    @Test(arguments: [["mdoc-reader", "request", "mdoc:owBjMS4w"], ["mdoc-reader", "scan"], ["mdoc-holder", "present"], ["mdoc", "demo"]])
    func quietAndVerboseExcludeEachOther(_ command: [String]) async throws {
        let result = try await ProgramRunner.run(command[0], Array(command.dropFirst()) + ["-q", "-v"])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("--quiet and --verbose exclude each other"), "\(result.standardError)")
    }
}
