import Foundation
import MdocTestSupport
import Testing

/// The ENVIRONMENT, FILES and EXIT STATUS of each program, which its own `--help` ends with and
/// scripts/manual.awk turns into those sections of its manual page: the exit statuses are those
/// its commands' `--help` lists, every variable a command's help names is there, and the script
/// makes the sections.
@Suite struct ManualSectionsTests {
    /// Each program and the commands whose exit statuses it can end with (`mdoc demo` ends with
    /// those of `mdoc-reader request`).
    static let programs: [(String, [String])] = [
        ("mdoc", ["mdoc inspect", "mdoc encode", "mdoc-reader request"]),
        ("mdoc-holder", ["mdoc-holder present", "mdoc-holder respond", "mdoc-holder test-reader", "mdoc-holder list", "mdoc-holder show", "mdoc-holder import",
                         "mdoc-holder remove", "mdoc-holder key seal", "mdoc-holder key generate"]),
        ("mdoc-reader", ["mdoc-reader request", "mdoc-reader verify", "mdoc-reader verify-request", "mdoc-reader scan",
                         "mdoc-reader online-request", "mdoc-reader test-holder",
                         "mdoc-reader trust add", "mdoc-reader trust import-vical", "mdoc-reader trust list", "mdoc-reader trust remove"]),
        ("mdoc-issuer", ["mdoc-issuer pki", "mdoc-issuer issue", "mdoc-issuer vical", "mdoc-issuer status-list",
                         "mdoc-issuer identifier-list"]),
        ("mdoc-benchmark", ["mdoc-benchmark verify", "mdoc-benchmark scaling", "mdoc-benchmark link",
                            "mdoc-benchmark presentations", "mdoc-benchmark sessions", "mdoc-benchmark status", "mdoc-benchmark online",
                            "mdoc-benchmark keys"]),
    ]

    /// The tags of the block headed `heading` in `help`: "  TAG  text" lines up to a blank line.
    static func tags(_ heading: String, in help: String) -> [String] {
        let lines = help.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: heading) else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line in
            guard line.hasPrefix("  "), let end = line.dropFirst(2).range(of: "  ") else { return nil }
            return String(line.dropFirst(2)[..<end.lowerBound])
        }
    }

    static func help(_ command: String) async throws -> String {
        let words = command.split(separator: " ").map(String.init)
        let result = try await ProgramRunner.run(words[0], Array(words.dropFirst()) + ["--help"], environment: ["COLUMNS": "2000"])
        #expect(result.status == 0, "\(command): \(result.standardError)")
        return result.standardOutput
    }

    @Test(arguments: programs.map(\.0))
    func theExitStatusesAreThoseOfItsCommands(_ program: String) async throws {
        let commands = try #require(Self.programs.first { $0.0 == program }).1
        var documented = Set<Int32>()
        for command in commands {
            documented.formUnion(try await ExitCodeTests.documentedCodes(command))
        }
        let tags = Self.tags("EXIT STATUS", in: try await Self.help(program))
        let listed = Set(tags.flatMap { $0.components(separatedBy: ", ") }.compactMap { Int32($0) })
        #expect(!listed.isEmpty, "\(program) --help has no EXIT STATUS")
        #expect(listed == documented, "\(program): EXIT STATUS \(listed.sorted()), its commands \(documented.sorted())")
    }

    @Test(arguments: programs.map(\.0))
    func everyVariableItsCommandsNameIsInItsEnvironment(_ program: String) async throws {
        let commands = try #require(Self.programs.first { $0.0 == program }).1.filter { $0.hasPrefix(program + " ") }
        let help = try await Self.help(program)
        let listed = Set(Self.tags("ENVIRONMENT", in: help).flatMap { $0.components(separatedBy: ", ") })
        #expect(!Self.tags("FILES", in: help).isEmpty, "\(program) --help has no FILES")
        let variable = try NSRegularExpression(pattern: "MDOC_[A-Z_]+")
        for command in commands {
            let text = try await Self.help(command)
            let named = variable.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
                Range($0.range, in: text).map { String(text[$0]) }
            }
            for name in named {
                #expect(listed.contains(name), "\(command) --help names \(name), which \(program)'s ENVIRONMENT lacks")
            }
        }
    }

    @Test func theScriptMakesTheSectionsInPlaceOfTheGenericExitStatus() async throws {
        // What generate-manual writes for a program whose discussion has the blocks.
        let page = """
            .Sh DESCRIPTION
            What it does.

            ENVIRONMENT
              MDOC_X  What X does.

            FILES
              ~/.x  What is kept there.

            EXIT STATUS
              0  Done.
              3, 4  Failed.
            .Bl -tag -width 6n
            .It Fl -version
            .El
            .Sh "EXIT STATUS"
            .Ex -std
            """
        let path = try ProgramRunner.temporaryFile(Array(page.utf8), suffix: ".1")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await ProgramRunner.runTool("awk", ["-f", ProgramRunner.repositoryRoot + "/scripts/manual.awk", path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == """
            .Sh DESCRIPTION
            What it does.
            .Bl -tag -width 6n
            .It Fl -version
            .El
            .Sh "ENVIRONMENT"
            .Bl -tag -width Ds
            .It "MDOC_X"
            What X does.
            .El
            .Sh "FILES"
            .Bl -tag -width Ds
            .It "~/.x"
            What is kept there.
            .El
            .Sh "EXIT STATUS"
            .Bl -tag -width Ds
            .It "0"
            Done.
            .It "3, 4"
            Failed.
            .El

            """, "\(result.standardOutput)")
    }
}
