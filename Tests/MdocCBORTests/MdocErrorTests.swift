import MdocCBOR
import Testing

/// The one error type of the toolkit (MdocErrors' `MdocError`), seen through CBORError and two
/// domains of this file: equality by code, the place an error was made, one type per domain,
/// and messages that never show that place.
struct MdocErrorTests {
    /// A domain of this file, with the default message (the reason).
    enum SampleDomain: ErrorDomain {}
    typealias SampleError = MdocError<SampleDomain>

    /// A domain of this file whose errors name an input.
    enum SampleInputDomain: SourcedErrorDomain {}
    typealias SampleInputError = MdocError<SampleInputDomain>

    @Test func equalityAndHashingCompareTheCodeAlone() {
        let one = CBORError(.truncated, "one", path: CBORPath("a"), offset: 1)
        let two = CBORError(.truncated, "two")
        #expect(one == two)
        #expect(one.hashValue == two.hashValue)
        #expect(Set([one, two]).count == 1)
        #expect(one != CBORError(.malformed, "one", path: CBORPath("a"), offset: 1))
        #expect(SampleError(.sample, "a") == SampleError(.sample, "b"))
        #expect(SampleError(.sample, "a") != SampleError(.other, "a"))
    }

    @Test func aThrownErrorRecordsWhereItWasMade() throws {
        func fail() throws(SampleError) {
            throw SampleError(.sample, "sample")
        }
        let line = #line - 2
        let error = try #require(throws: SampleError.self) { try fail() }
        #expect(error.fileID == #fileID)
        #expect(error.line == line)
        #expect(error.description == "sample")
    }

    @Test func anErrorOfTheLibraryRecordsItsSourceFileButDoesNotPrintIt() throws {
        let error = try #require(try decodingError(hex: "a16161"))
        #expect(error.fileID.hasPrefix("MdocCBOR/"), "\(error.fileID)")
        #expect(error.line > 0)
        #expect(!error.description.contains("MdocCBOR/"))
        #expect(!error.description.contains(".swift"))
    }

    @Test func twoDomainsAreTwoTypes() {
        let sample: any Error = SampleError(.sample, "sample")
        let cbor: any Error = CBORError(.truncated, "truncated")
        #expect(!(sample is CBORError))
        #expect(!(cbor is SampleError))
        #expect(sample is SampleError)
        #expect(ObjectIdentifier(SampleError.self) != ObjectIdentifier(CBORError.self))
        #expect(ObjectIdentifier(SampleError.Code.self) != ObjectIdentifier(CBORError.Code.self))
    }

    @Test func cborErrorsPrintTheirPathAndOffsetAsBefore() {
        #expect(CBORError(.truncated, "the input ends", offset: 3).description == "the input ends at top level (byte 3)")
        #expect(CBORError(.missingValue, "no docType", path: CBORPath("documents")).description == "no docType at documents")
        let inner = CBORError(.unexpectedType, "expected a map", path: CBORPath("b"), offset: 6)
        let outer = inner.prefixed(by: CBORPath("a"))
        #expect(outer.description == "expected a map at a.b (byte 6)")
        #expect(outer.path == CBORPath("a", "b"))
        #expect(outer.offset == 6)
        #expect(outer.fileID == inner.fileID && outer.line == inner.line)
    }

    @Test func sourcedErrorsPrintTheirSourceFirst() {
        var error = SampleInputError(.sample, source: "in.cbor", "not CBOR")
        #expect(error.description == "in.cbor: not CBOR")
        error.context = "standard input"
        #expect(error.source == "standard input")
        #expect(error.description == "standard input: not CBOR")
    }
}

extension ErrorKind where Domain == MdocErrorTests.SampleError {
    /// A code of this file's domain.
    static let sample = Self("sample")
    /// Another code of this file's domain.
    static let other = Self("other")
}

extension ErrorKind where Domain == MdocErrorTests.SampleInputError {
    /// A code of this file's input domain.
    static let sample = Self("sample")
}
