/// Where an item sits inside a decoded message, for error messages such as
/// `documents[0].issuerSigned.nameSpaces["org.iso.18013.5.1"][3]`.
///
/// Text keys that are plain identifiers print with a dot, other keys in brackets as JSON string
/// literals (so a key from a peer cannot end the brackets or act on a terminal); array indices
/// print in brackets. The empty path is the top-level item.
public struct CBORPath: Sendable, Hashable, CustomStringConvertible {
    /// One step into a container.
    public enum Component: Sendable, Hashable {
        /// A map entry with a text-string key.
        case key(String)
        /// A map entry with an integer key (COSE headers and keys, DeviceEngagement, ...).
        case intKey(Int64)
        /// An array element, or the n-th entry of a map when its key is not printable.
        case index(Int)
        /// The content of a tag.
        case tagContent(UInt64)
        /// The item embedded in a tag-24 byte string.
        case embedded
    }

    /// The innermost step and the path to its container, shared by every path that extends
    /// it: decoding a message builds the path of each item it reads, and one step deeper then
    /// costs one small allocation, not a copy of the whole path.
    private final class Step: Sendable {
        let component: Component
        let parent: Step?
        let depth: Int

        init(_ component: Component, parent: Step?) {
            self.component = component
            self.parent = parent
            self.depth = (parent?.depth ?? 0) + 1
        }
    }

    private let last: Step?

    private init(last: Step?) {
        self.last = last
    }

    /// The steps from the top-level item.
    public var components: [Component] {
        var components: [Component] = []
        components.reserveCapacity(last?.depth ?? 0)
        var step = last
        while let current = step {
            components.append(current.component)
            step = current.parent
        }
        return components.reversed()
    }

    /// The top-level item.
    public static let root = CBORPath(last: nil)

    /// The path of `components`, outermost first.
    public init(components: [Component] = []) {
        var last: Step?
        for component in components {
            last = Step(component, parent: last)
        }
        self.last = last
    }

    /// A path made of plain text keys, as in `CBORPath("documents")`.
    public init(_ keys: String...) {
        self.init(components: keys.map(Component.key))
    }

    /// This path one step deeper.
    public func appending(_ component: Component) -> CBORPath {
        CBORPath(last: Step(component, parent: last))
    }

    /// This path into the map entry with text key `key`.
    public func appending(key: String) -> CBORPath { appending(.key(key)) }
    /// This path into the map entry with integer key `intKey`.
    public func appending(intKey: Int64) -> CBORPath { appending(.intKey(intKey)) }
    /// This path into array element `index`.
    public func appending(index: Int) -> CBORPath { appending(.index(index)) }

    /// The path of `path` taken from this one (for an embedded item found at `self`).
    public func appending(contentsOf path: CBORPath) -> CBORPath {
        var result = self
        for component in path.components {
            result = result.appending(component)
        }
        return result
    }

    /// Equal when both name the same steps.
    public static func == (lhs: CBORPath, rhs: CBORPath) -> Bool {
        lhs.last === rhs.last || lhs.components == rhs.components
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(components)
    }

    public var description: String {
        if components.isEmpty { return "top level" }
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if Self.isIdentifier(key) {
                    if !text.isEmpty { text += "." }
                    text += key
                } else {
                    text += "[\(JSONStringLiteral.quoted(key))]"
                }
            case .intKey(let key):
                text += "[\(key)]"
            case .index(let index):
                text += "[\(index)]"
            case .tagContent(let tag):
                text += "<tag \(tag)>"
            case .embedded:
                text += "<<>>"
            }
        }
        return text
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else {
            return false
        }
        return key.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }
}
