import CCBOR

/// One step of libcbor's streaming decoder: a head, or a definite-length string with its content
/// (RFC 8949 section 3).
enum CBORStreamEvent {
    case unsignedInt(UInt64)
    case negativeInt(UInt64)
    /// A definite-length byte string: where its content lies, relative to the start of the
    /// buffer read.
    case byteString(Range<Int>)
    /// A definite-length text string, or `nil` when its bytes are not valid UTF-8 (RFC 8949
    /// section 3.1, major type 3). The string is validated once, straight from the input.
    case textString(String?)
    case byteStringStart
    case textStringStart
    case array(UInt64)
    case arrayStart
    case map(UInt64)
    case mapStart
    case tag(UInt64)
    case float(Double)
    case boolean(Bool)
    case null
    case undefined
    case simple(UInt8)
    case breakCode
}

/// The result of reading at one offset: an event and the bytes it took, or why none was read.
enum CBORStreamStep {
    case event(CBORStreamEvent, length: Int)
    /// The input ends inside the head or inside a definite-length string's content.
    case needsMoreData
    /// libcbor rejected the initial byte (reserved additional information, an indefinite length
    /// on a major type that has none, simple values libcbor does not handle).
    case rejected
}

/// Drives `cbor_stream_decode` (libcbor 0.8, streaming.h) one event at a time. libcbor calls back
/// into Swift with the decoded head; the callbacks store it in a local ``Context`` of
/// ``step(_:at:)``, whose address is libcbor's context pointer for the duration of that one call.
///
/// Heads that libcbor 0.8 rejects although they are well-formed are read here in Swift: tags 6...20
/// in the initial byte (0xc6...0xd4, RFC 8949 section 3.4) and simple values 0...19 and 32...255
/// (0xe0...0xf3 and 0xf8, section 3.3), which libcbor treats as errors because they are unassigned.
struct CBORStreamReader {
    /// The callbacks, made once for the process: libcbor only reads them.
    private nonisolated(unsafe) static let callbacks: UnsafePointer<cbor_callbacks> = {
        let pointer = UnsafeMutablePointer<cbor_callbacks>.allocate(capacity: 1)
        pointer.initialize(to: makeCallbacks())
        return UnsafePointer(pointer)
    }()

    init() {}

    /// Reads the event whose head starts at `offset`; `offset` must be inside `buffer`.
    func step(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int) -> CBORStreamStep {
        guard let base = buffer.baseAddress, offset >= 0, offset < buffer.count else { return .needsMoreData }
        let initial = buffer[offset]
        switch initial {
        case 0xc6...0xd4:
            return .event(.tag(UInt64(initial - 0xc0)), length: 1)
        case 0xe0...0xf3:
            return .event(.simple(initial - 0xe0), length: 1)
        case 0xf8:
            guard offset + 1 < buffer.count else { return .needsMoreData }
            let value = buffer[offset + 1]
            // RFC 8949 section 3.3: values below 32 in the two-byte form are not well-formed.
            guard value >= 32 else { return .rejected }
            return .event(.simple(value), length: 2)
        default:
            break
        }
        var context = Context(base: base, event: nil)
        let result = withUnsafeMutablePointer(to: &context) { context in
            cbor_stream_decode(base + offset, buffer.count - offset, Self.callbacks, context)
        }
        switch result.status {
        case CBOR_DECODER_FINISHED:
            guard let event = context.event, result.read > 0 else { return .rejected }
            return .event(event, length: result.read)
        case CBOR_DECODER_NEDATA:
            return .needsMoreData
        default:
            return .rejected
        }
    }

    /// What the callbacks see: the start of the buffer, to locate byte strings in it, and the
    /// event they report.
    struct Context {
        let base: UnsafePointer<UInt8>
        var event: CBORStreamEvent?
    }

    // libcbor 0.8's callbacks.h labels some fields the wrong way round: `byte_string` and
    // `string` receive definite strings, `*_start` the start of indefinite ones; `array_start` and
    // `map_start` receive definite counts, `indef_*_start` indefinite starts.
    private static func makeCallbacks() -> cbor_callbacks {
        var c = cbor_callbacks()
        c.uint8 = { record($0, .unsignedInt(UInt64($1))) }
        c.uint16 = { record($0, .unsignedInt(UInt64($1))) }
        c.uint32 = { record($0, .unsignedInt(UInt64($1))) }
        c.uint64 = { record($0, .unsignedInt($1)) }
        c.negint8 = { record($0, .negativeInt(UInt64($1))) }
        c.negint16 = { record($0, .negativeInt(UInt64($1))) }
        c.negint32 = { record($0, .negativeInt(UInt64($1))) }
        c.negint64 = { record($0, .negativeInt($1)) }
        c.byte_string = { recordByteString($0, $1, $2) }
        c.byte_string_start = { record($0, .byteStringStart) }
        c.string = { record($0, .textString(validatedText($1, $2))) }
        c.string_start = { record($0, .textStringStart) }
        c.array_start = { record($0, .array(collectionSize($1))) }
        c.indef_array_start = { record($0, .arrayStart) }
        c.map_start = { record($0, .map(collectionSize($1))) }
        c.indef_map_start = { record($0, .mapStart) }
        c.tag = { record($0, .tag($1)) }
        c.float2 = { record($0, .float(Double($1))) }
        c.float4 = { record($0, .float(Double($1))) }
        c.float8 = { record($0, .float($1)) }
        c.undefined = { record($0, .undefined) }
        c.null = { record($0, .null) }
        c.boolean = { record($0, .boolean($1)) }
        c.indef_break = { record($0, .breakCode) }
        return c
    }
}

// Helpers of the callbacks, as free functions: a C function pointer cannot capture context.

/// Stores `event` in the ``CBORStreamReader/Context`` that ``CBORStreamReader/step(_:at:)``
/// passed as the context: a typed pointer to a local that outlives the `cbor_stream_decode` call.
private func record(_ context: UnsafeMutableRawPointer?, _ event: CBORStreamEvent) {
    guard let context else { return }
    context.assumingMemoryBound(to: CBORStreamReader.Context.self).pointee.event = event
}

/// Records a definite-length byte string by where its content lies in the buffer: libcbor hands
/// a pointer into the input and a length it has checked against the bytes that remain, so the
/// content is not copied here.
private func recordByteString(_ context: UnsafeMutableRawPointer?, _ data: UnsafePointer<UInt8>?, _ count: Int) {
    guard let context else { return }
    let pointer = context.assumingMemoryBound(to: CBORStreamReader.Context.self)
    guard let data, count > 0 else {
        pointer.pointee.event = .byteString(0..<0)
        return
    }
    let start = data - pointer.pointee.base
    pointer.pointee.event = .byteString(start..<(start + count))
}

/// The text of a definite-length string, validated once as UTF-8 straight from the input (no
/// intermediate array, and no generic validation path); `nil` when invalid. libcbor hands a
/// pointer into the input and a length it has checked against the bytes that remain.
private func validatedText(_ data: UnsafePointer<UInt8>?, _ count: Int) -> String? {
    guard let data, count > 0 else { return "" }
    let bytes = UnsafeBufferPointer(start: data, count: count)
    guard let text = try? UTF8Span(validating: bytes.span) else { return nil }
    return String(copying: text)
}

/// libcbor passes collection sizes as `size_t`, which Swift imports as `Int`.
private func collectionSize(_ count: Int) -> UInt64 {
    UInt64(UInt(bitPattern: count))
}
