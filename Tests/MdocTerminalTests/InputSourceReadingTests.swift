import Foundation
@testable import MdocFiles
import MdocText
import Testing

/// Input files are read whole (``InputSource``): a regular file into one allocation of its size,
/// not an array that doubles while it grows and keeps up to twice the file's size.
@Suite("InputSource reads a file into an allocation of its size")
struct InputSourceReadingTests {
    @Test("a 600,000-byte file is read whole into about 600,000 bytes of capacity")
    func regularFileIsReadIntoItsSize() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("input-\(UUID().uuidString).bin").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let content = (0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(content).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let read = try InputSource.readAll(fd: descriptor, name: path)
        #expect(read == content)
        // Read in 64 KiB pieces into a growing array, it would have 1 MiB of capacity.
        #expect(read.capacity < content.count + content.count / 8, "capacity \(read.capacity)")
    }

    @Test("a file larger than the input limit is refused, having read one byte past the limit")
    func fileBeyondTheLimitIsRefused() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("input-\(UUID().uuidString).bin").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(count: InputSource.maximumInputSize + 1).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(throws: InputError.self) { try InputSource.readAll(fd: descriptor, name: path) }
    }
}
