import ArgumentParser
import Logging
import MdocCommandLine
import MdocFiles
import MdocLEHost
import MdocPresentation
import MdocRadios
import MdocSession
import MdocText
import Testing

/// What the programs share on their command lines: usage errors on one line, the `--transport`
/// value, and the option groups whose checks run when the command line is parsed.
@Suite struct CommandLineTests {
    // MARK: Usage errors

    struct Tool: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "tool", subcommands: [Sub.self])
    }

    struct Sub: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "sub")
        @Option var count: Int = 1
        func validate() throws {
            guard count > 0 else { throw ValidationError("--count must be more than 0") }
        }
    }

    @Test func aUsageErrorIsOneLineAndAHint() throws {
        let arguments = ["sub", "--count", "0"]
        let error = try #require(throws: (any Error).self) { _ = try Tool.parseAsRoot(arguments) }
        let failure = try #require(ProgramEntry.usageFailure(Tool.self, error, arguments: arguments))
        #expect(failure.status == .usage && failure.status.rawValue == 64)
        #expect(failure.message.description == "--count must be more than 0")
        #expect(failure.hint?.description == "see 'tool sub --help'")

        let unknownArguments = ["sub", "--size", "2"]
        let unknown = try #require(throws: (any Error).self) { _ = try Tool.parseAsRoot(unknownArguments) }
        #expect(ProgramEntry.usageFailure(Tool.self, unknown, arguments: unknownArguments)?.message.description.contains("\n") == false)

        #expect(ProgramEntry.usageFailure(Tool.self, CleanExit.helpRequest(Sub.self), arguments: []) == nil)
        #expect(ProgramEntry.usageFailure(Tool.self, ExitCode(7), arguments: []) == nil)
    }

    @Test func anUnknownOptionIsNamedEvenWhenTheRestFailsValidation() throws {
        // The argument parser runs validate() before it looks for unknown options.
        for arguments in [["sub", "--bogus", "--count", "0"], ["sub", "--count", "0", "--bogus=1"]] {
            let error = try #require(throws: (any Error).self) { _ = try Tool.parseAsRoot(arguments) }
            let failure = try #require(ProgramEntry.usageFailure(Tool.self, error, arguments: arguments))
            #expect(failure.message.description == "Unknown option '--bogus'", "\(arguments)")
            #expect(failure.hint?.description == "see 'tool sub --help'")
        }
        // Known options, and what follows "--", are not.
        for arguments in [["sub", "--count", "0"], ["sub", "--count=0", "--", "--bogus"]] {
            let error = try #require(throws: (any Error).self) { _ = try Tool.parseAsRoot(arguments) }
            let failure = try #require(ProgramEntry.usageFailure(Tool.self, error, arguments: arguments))
            #expect(failure.message.description == "--count must be more than 0", "\(arguments)")
        }
    }

    // MARK: --transport

    @Test func transportsParseAndSpellAsGiven() throws {
        let spellings: [(String, TransportSpec)] = [
            ("sim", .sim),
            ("bluez", .bluez(adapter: nil)),
            ("bluez:hci1", .bluez(adapter: "hci1")),
            ("hci:tcp:127.0.0.1:9001", .hci(.tcp(host: "127.0.0.1", port: 9001))),
            ("hci:user:0", .hci(.userChannel(index: 0))),
        ]
        for (text, spec) in spellings {
            #expect(try TransportSpec(parsing: text) == spec, "\(text)")
            #expect(spec.description == text)
        }
        #expect(try TransportSpec(parsing: "hci:tcp:127.0.0.1:9001").carriesHCI)
        #expect(!TransportSpec.sim.carriesHCI && !TransportSpec.bluez(adapter: nil).carriesHCI)
    }

    @Test(arguments: ["", "usb", "bluez:", "bluez:hci", "bluez:hcix", "bluez:adapter0", "hci:", "hci:tcp:nowhere"])
    func anUnknownTransportIsRefused(_ text: String) {
        #expect {
            try TransportSpec(parsing: text)
        } throws: { error in
            (error as? LinkError)?.code == .unsupportedTransport
        }
    }

    @Test func btsnoopNeedsAnHCITransport() throws {
        let options = try LiveTransportOptions.parse(["--transport", "hci:tcp:127.0.0.1:9001", "--btsnoop", "packets.btsnoop"])
        #expect(options.transport == .hci(.tcp(host: "127.0.0.1", port: 9001)) && options.btsnoop == "packets.btsnoop")
        #expect(throws: (any Error).self) { try LiveTransportOptions.parse(["--transport", "sim", "--btsnoop", "packets.btsnoop"]) }
        #expect(throws: (any Error).self) { try LiveTransportOptions.parse(["--btsnoop", "packets.btsnoop"]) }
        #expect(try LiveTransportOptions.parse(["--log-level", "trace"]).logLevel == .trace)
        #expect(try LiveTransportOptions.parse([]).logLevel == .warning)
    }

    // MARK: --accept-ds-eku

    @Test func acceptedPurposesAreAddedToTheStandardPolicy() throws {
        let options = try DocumentSignerOptions.parse([
            "--accept-ds-eku", "eu.europa.ec.av.1=1.3.130.2.0.0.1.2", "--accept-ds-eku", "org.example.1=1.2.3",
        ])
        let policy = try options.policy()
        #expect(policy.addedExtendedKeyUsages == ["eu.europa.ec.av.1": ["1.3.130.2.0.0.1.2"], "org.example.1": ["1.2.3"]])
        #expect(try DocumentSignerOptions.parse([]).policy() == DocumentSignerPolicy.standard)
    }

    @Test(arguments: ["eu.europa.ec.av.1", "eu.europa.ec.av.1=", "eu.europa.ec.av.1=not-an-oid", "=1.2.3"])
    func aMalformedPurposeIsAUsageError(_ argument: String) throws {
        let error = try #require(throws: (any Error).self) {
            _ = try DocumentSignerOptions.parse(["--accept-ds-eku", argument])
        }
        #expect(DocumentSignerOptions.message(for: error).hasPrefix("--accept-ds-eku \(argument): "))
    }
}
