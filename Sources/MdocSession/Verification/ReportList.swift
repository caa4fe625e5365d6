/// The checks or the elements of a ``DocumentReport``: a collection that holds what belongs to
/// each returned IssuerSignedItem as a run over the items the decoded document already holds,
/// and builds its entries when they are read.
///
/// A response returns an IssuerSignedItem per data element and verification makes a check and
/// an element of each (18013-5 9.3.1). Held as values, those would cost more than the response's
/// own bytes for a response of short elements; held as a run, they cost a byte or a word per
/// item. A list reads like an array, in order, and takes any change an array takes: a change
/// other than appending turns it into values.
public struct ReportList<Element: Sendable>: Sendable {
    /// One part of the list: entries held as values, or a run built from the items.
    enum Segment: Sendable {
        case values([Element])
        case run(any ReportRun<Element>)

        var count: Int {
            switch self {
            case .values(let values): return values.count
            case .run(let run): return run.count
            }
        }

        subscript(offset: Int) -> Element {
            switch self {
            case .values(let values): return values[offset]
            case .run(let run): return run[offset]
            }
        }
    }

    /// The parts, in order; none is empty.
    private(set) var segments: [Segment]
    /// Where each part starts in the list.
    private var starts: [Int]
    /// The number of entries.
    public private(set) var count: Int

    /// An empty list.
    public init() {
        segments = []
        starts = []
        count = 0
    }

    /// A list of `elements`, in order.
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init()
        let values = Array(elements)
        if !values.isEmpty { appendSegment(.values(values)) }
    }

    /// Appends the entries `run` builds.
    mutating func append(run: some ReportRun<Element>) {
        if run.count > 0 { appendSegment(.run(run)) }
    }

    private mutating func appendSegment(_ segment: Segment) {
        segments.append(segment)
        starts.append(count)
        count += segment.count
    }

    /// The part holding the entry at `position`, and where in it.
    private func locate(_ position: Int) -> (segment: Int, offset: Int) {
        precondition(position >= 0 && position < count, "ReportList index \(position) out of range 0..<\(count)")
        // A report has a few parts (a run per name space); the last one holding the position.
        var segment = segments.count - 1
        while starts[segment] > position { segment -= 1 }
        return (segment, position - starts[segment])
    }
}

extension ReportList: RandomAccessCollection {
    /// The position of the first entry.
    public var startIndex: Int { 0 }
    /// The position after the last entry.
    public var endIndex: Int { count }

    /// The entry at `position`.
    public subscript(position: Int) -> Element {
        let (segment, offset) = locate(position)
        return segments[segment][offset]
    }

    /// An iterator over the entries, part by part.
    public struct Iterator: IteratorProtocol {
        private let segments: [Segment]
        private var segment = 0
        private var offset = 0

        init(_ segments: [Segment]) {
            self.segments = segments
        }

        /// The next entry, or `nil` after the last.
        public mutating func next() -> Element? {
            while segment < segments.count {
                if offset < segments[segment].count {
                    defer { offset += 1 }
                    return segments[segment][offset]
                }
                segment += 1
                offset = 0
            }
            return nil
        }
    }

    /// Iterates over the entries in order.
    public func makeIterator() -> Iterator {
        Iterator(segments)
    }
}

extension ReportList: RangeReplaceableCollection {
    /// Appends `element`, to the last part when it holds values.
    public mutating func append(_ element: Element) {
        if case .values(var values)? = segments.last {
            // Take the array out of the enum first, so that appending does not copy it.
            segments[segments.count - 1] = .values([])
            values.append(element)
            segments[segments.count - 1] = .values(values)
            count += 1
        } else {
            appendSegment(.values([element]))
        }
    }

    /// Appends `elements` in order.
    public mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        for element in elements { append(element) }
    }

    /// Replaces the entries in `range` with `elements`; the list then holds values only.
    public mutating func replaceSubrange<C: Collection>(_ range: Range<Int>, with elements: C) where C.Element == Element {
        var values = Array(self)
        values.replaceSubrange(range, with: elements)
        self = ReportList(values)
    }
}

extension ReportList: ExpressibleByArrayLiteral {
    /// A list of the entries written.
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension ReportList: Equatable where Element: Equatable {
    /// Equal when both hold equal entries in the same order, however they hold them.
    public static func == (lhs: ReportList, rhs: ReportList) -> Bool {
        lhs.elementsEqual(rhs)
    }
}

extension ReportList: CustomStringConvertible {
    /// The entries as an array prints them.
    public var description: String {
        Array(self).description
    }
}
