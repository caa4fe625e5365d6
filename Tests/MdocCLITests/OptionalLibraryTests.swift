import Foundation
import MdocTestSupport
import Testing

/// The camera/QR-image, Bluetooth and HTTP libraries are opened when first used
/// (CDynamicLibrary), so programs that do not use them never load them, nor what they bring in
/// (X11, v4l, D-Bus, gcrypt, libcurl's HTTP/2, IDN and LDAP libraries...). The dynamic linker's
/// own log (LD_DEBUG=files, ld.so(8)) names every object loaded.
@Suite struct OptionalLibraryTests {
    static let optionalLibraries = ["libzbar", "libpng16", "libjpeg", "libbluetooth", "libsystemd", "libX11", "libv4l2", "libdbus-1", "libcurl"]

    /// Foundation beyond FoundationEssentials: CoreFoundation's libFoundation, and the
    /// internationalization library with ICU and its data. The programs use FoundationEssentials
    /// alone; loading the rest costs each start a few milliseconds.
    static let fullFoundation = ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"]

    /// The objects the dynamic linker loaded for a run, by file name.
    private static func loadedObjects(_ result: ProgramRunner.Result) -> [String] {
        result.standardError.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "file=") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != " " && $0 != "\t" && $0 != "[" })
        }
    }

    @Test("mdoc-reader verify loads no camera, QR-image or Bluetooth library")
    func verifyLoadsNone() async throws {
        let v = "Vectors/iso18013-5-annex-d"
        let result = try await ProgramRunner.run(
            "mdoc-reader",
            ["verify", "\(v)/device_response.hex", "--trust", "\(v)/iaca_cert.hex", "--transcript", "\(v)/session_transcript_bytes.hex",
             "--reader-key", "Certs/annex-d/eReaderKey.pem", "--at", "2021-01-01T00:00:00Z"],
            timeout: 20, environment: ["LD_DEBUG": "files"])
        #expect(result.status == 0)
        let loaded = Self.loadedObjects(result)
        #expect(loaded.contains { $0.hasPrefix("libcrypto") }, "the log names the objects loaded: \(loaded)")
        #expect(loaded.filter { object in Self.optionalLibraries.contains { object.hasPrefix($0) } }.isEmpty, "\(loaded)")
    }

    @Test("no program loads Foundation beyond FoundationEssentials", arguments: ["mdoc", "mdoc-holder", "mdoc-reader", "mdoc-issuer", "mdoc-benchmark"])
    func programLoadsFoundationEssentialsAlone(program: String) async throws {
        let result = try await ProgramRunner.run(program, ["--version"], timeout: 20, environment: ["LD_DEBUG": "files"])
        #expect(result.status == 0)
        let loaded = Self.loadedObjects(result)
        #expect(loaded.contains { $0.hasPrefix("libFoundationEssentials.so") }, "the log names the objects loaded: \(loaded)")
        #expect(loaded.filter { object in Self.fullFoundation.contains { object.hasPrefix($0) } }.isEmpty, "\(loaded)")
    }

    @Test("mdoc inspect loads no camera, QR-image or Bluetooth library")
    func inspectLoadsNone() async throws {
        let result = try await ProgramRunner.run(
            "mdoc", ["inspect", "Vectors/iso18013-5-annex-d/device_response.hex"], timeout: 20, environment: ["LD_DEBUG": "files"])
        #expect(result.status == 0)
        let loaded = Self.loadedObjects(result)
        #expect(loaded.filter { object in Self.optionalLibraries.contains { object.hasPrefix($0) } }.isEmpty, "\(loaded)")
    }

    @Test("reading a QR image opens libpng when it needs it")
    func qrImageOpensLibpng() async throws {
        // A PNG signature and the start of a header chunk: libpng is opened, then rejects it.
        let image = try ProgramRunner.temporaryFile([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13] + Array("IHDR".utf8), suffix: ".png")
        let result = try await ProgramRunner.run(
            "mdoc-reader", ["request", "--qr-image", image, "--trust", "Certs/demo/iaca.pem"], timeout: 20,
            environment: ["LD_DEBUG": "files"])
        #expect(result.status == 7)
        #expect(result.standardError.contains("cannot decode PNG: libpng:"))
        #expect(Self.loadedObjects(result).contains { $0.hasPrefix("libpng16") })
    }
}
