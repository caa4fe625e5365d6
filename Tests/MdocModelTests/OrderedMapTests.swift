import MdocModel
import Testing

/// OrderedMap keeps its entries in order and finds a key in O(1): by comparing in place up to
/// `linearSearchLimit` entries, through a hash index beyond.
struct OrderedMapTests {
    private static func map(_ count: Int) -> OrderedMap<String, Int> {
        var map = OrderedMap<String, Int>()
        for index in 0..<count { map["key \(index)"] = index }
        return map
    }

    @Test("lookups, updates and removals on each side of the linear search limit", arguments: [
        OrderedMap<String, Int>.linearSearchLimit, OrderedMap<String, Int>.linearSearchLimit + 1, 1_000,
    ])
    func eachSideOfTheLimit(count: Int) {
        var map = Self.map(count)
        #expect(map.count == count)
        #expect(map.keys == (0..<count).map { "key \($0)" })
        for index in 0..<count { #expect(map["key \(index)"] == index) }
        #expect(map["absent"] == nil)
        map["key 0"] = 100
        #expect(map["key 0"] == 100 && map.keys.first == "key 0")
        // Removing an entry moves those after it; each is still found.
        map["key 1"] = nil
        #expect(map.count == count - 1 && map["key 1"] == nil)
        for index in 2..<count { #expect(map["key \(index)"] == index) }
        map["key 1"] = 1
        #expect(map.keys.last == "key 1" && map["key 1"] == 1)
    }

    @Test("integer keys are found as the index grows past each three quarters of its slots", arguments: [12, 13, 24, 25, 48, 49, 5_000])
    func growingIndex(count: Int) {
        // Keys that differ only above the low 32 bits, as digest IDs chosen to collide would.
        let keys = (0..<UInt64(count)).map { $0 << 32 | 7 }
        var map = OrderedMap<UInt64, Int>()
        for (value, key) in keys.enumerated() { map[key] = value }
        #expect(map.count == count && map.keys == keys)
        #expect(keys.enumerated().allSatisfy { map[$0.element] == $0.offset })
        #expect(map[7 | 1 << 63] == nil && map[8] == nil)
        map[keys[count / 2]] = nil
        #expect(map.count == count - 1 && map[keys[count / 2]] == nil)
        #expect(keys.enumerated().allSatisfy { $0.offset == count / 2 || map[$0.element] == $0.offset })
    }

    @Test("the default subscript adds an absent key at the end and changes a present one in place")
    func defaultSubscript() {
        var map: OrderedMap<String, OrderedMap<String, Bool>> = ["a": ["x": false]]
        map["a", default: [:]]["y"] = true
        map["b", default: [:]]["z"] = false
        #expect(map.keys == ["a", "b"])
        #expect(map["a"] == ["x": false, "y": true])
        #expect(map["b"] == ["z": false])
        #expect(map["c", default: [:]].isEmpty && map["c"] == nil)
    }

    @Test("a later equal key replaces the earlier value in place; equality ignores the index")
    func initialiserAndEquality() {
        let map = OrderedMap<String, Int>([(key: "a", value: 1), (key: "b", value: 2), (key: "a", value: 3)])
        #expect(map.elements.map(\.key) == ["a", "b"] && map["a"] == 3)
        var grown = Self.map(OrderedMap<String, Int>.linearSearchLimit + 5)
        for index in 0..<5 { grown["key \(OrderedMap<String, Int>.linearSearchLimit + index)"] = nil }
        #expect(grown == Self.map(OrderedMap<String, Int>.linearSearchLimit))
    }
}
