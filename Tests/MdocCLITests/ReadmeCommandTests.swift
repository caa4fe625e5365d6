import Foundation
import MdocTestSupport
import Testing

/// The README's blocks of commands that need no radio, each marked by the comment
/// ``marker`` before it, run as a user would run them: in the README's order, in one new folder
/// that holds the checkout's `Certs`, `Samples` and `Vectors`, with the programs on `PATH` and
/// stores of their own. Every command must succeed, so the README cannot drift from the programs.
@Suite struct ReadmeCommandTests {
    /// The comment before a block the test runs.
    static let marker = "<!-- run in CI: Tests/MdocCLITests/ReadmeCommandTests.swift -->"

    /// The marked blocks of `readme`, in order, each with the line its fence is on.
    static func blocks(_ readme: String) -> [(line: Int, commands: String)] {
        let lines = readme.components(separatedBy: "\n")
        var blocks: [(line: Int, commands: String)] = []
        for (index, line) in lines.enumerated() where line == marker && index + 1 < lines.count && lines[index + 1] == "```sh" {
            let body = lines[(index + 2)...].prefix { $0 != "```" }
            blocks.append((index + 2, body.joined(separator: "\n")))
        }
        return blocks
    }

    @Test func theMarkedBlocksRunAsWritten() async throws {
        let readme = try String(contentsOfFile: Vectors.repositoryRoot + "/README.md", encoding: .utf8)
        let blocks = Self.blocks(readme)
        #expect(blocks.count >= 10, "\(blocks.count) marked blocks")
        let run = try IsolatedRun()
        defer { run.remove() }
        let folder = run.home + "/work"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["Certs", "Samples", "Vectors"] {
            try FileManager.default.createSymbolicLink(atPath: folder + "/" + name, withDestinationPath: Vectors.repositoryRoot + "/" + name)
        }
        let path = ProgramRunner.productsDirectory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for block in blocks {
            let script = try ProgramRunner.temporaryFile(Array(("set -euo pipefail\n" + block.commands + "\n").utf8), suffix: ".sh")
            defer { try? FileManager.default.removeItem(atPath: script) }
            let bash = try BackgroundProgram(
                executable: URL(fileURLWithPath: "/usr/bin/env"), ["bash", script],
                environment: run.environment.merging(["PATH": path]) { _, new in new }, directory: folder)
            bash.closeInput()
            let ran = await bash.wait(timeout: LiveSession.waitTimeout)
            #expect(ran.status == 0, "README.md line \(block.line):\n\(block.commands)\n\(ran.standardError)")
        }
    }
}
