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
    /// A run and where it lies: after the first `valuesBefore` entries held as values.
    struct Run: Sendable {
        let valuesBefore: Int
        let entries: any ReportRun<Element>
    }

    /// The entries held as values, in order.
    private(set) var values: [Element]
    /// The runs, in order; none is empty.
    private(set) var runs: [Run]
    /// The number of entries.
    public var count: Int {
        runs.reduce(values.count) { $0 + $1.entries.count }
    }

    /// An empty list.
    public init() {
        values = []
        runs = []
    }

    /// A list of `elements`, in order.
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        values = Array(elements)
        runs = []
    }

    /// Appends the entries `run` builds.
    mutating func append(run: some ReportRun<Element>) {
        guard run.count > 0 else { return }
        runs.append(Run(valuesBefore: values.count, entries: run))
    }
}

extension ReportList: RandomAccessCollection {
    /// The position of the first entry.
    public var startIndex: Int { 0 }
    /// The position after the last entry.
    public var endIndex: Int { count }

    /// The entry at `position`.
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "ReportList index \(position) out of range 0..<\(count)")
        // A report has a run per name space: few, walked in order.
        var runEntriesBefore = 0
        for run in runs {
            let start = run.valuesBefore + runEntriesBefore
            if position < start { break }
            if position < start + run.entries.count { return run.entries[position - start] }
            runEntriesBefore += run.entries.count
        }
        return values[position - runEntriesBefore]
    }

    /// An iterator over the entries, values and runs in turn.
    public struct Iterator: IteratorProtocol {
        private let values: [Element]
        private let runs: [Run]
        private var value = 0
        private var run = 0
        private var offset = 0

        init(values: [Element], runs: [Run]) {
            self.values = values
            self.runs = runs
        }

        /// The next entry, or `nil` after the last.
        public mutating func next() -> Element? {
            while run < runs.count, runs[run].valuesBefore == value {
                if offset < runs[run].entries.count {
                    defer { offset += 1 }
                    return runs[run].entries[offset]
                }
                run += 1
                offset = 0
            }
            guard value < values.count else { return nil }
            defer { value += 1 }
            return values[value]
        }
    }

    /// Iterates over the entries in order.
    public func makeIterator() -> Iterator {
        Iterator(values: values, runs: runs)
    }
}

extension ReportList: RangeReplaceableCollection {
    /// Appends `element`.
    public mutating func append(_ element: Element) {
        values.append(element)
    }

    /// Appends `elements` in order.
    public mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        values.append(contentsOf: elements)
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
