import Foundation

// Shared by the fuzz tests of several test targets (the other targets hold a symlink to this file):
// a seeded generator and mutators for bytes and JSON, so every run tries the same inputs and a failure
// names the seed and iteration that reproduce it.

/// xorshift64*: small, fast and deterministic for a given seed.
struct FuzzRNG: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// A number in 0..<n (0 when n is 0).
    mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }

    /// True `percent` times out of 100.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    mutating func bytes(_ count: Int) -> Data { Data((0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }) }
}

/// Byte-level mutations: flips, overwrites, inserts, deletes, truncation, splices.
enum ByteMutator {
    static let interesting: [UInt8] = [0, 1, 0x7F, 0x80, 0xFF, 0xFE, 0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A]
    static let wideValues: [UInt64] = [0, 1, UInt64.max, UInt64.max - 1, 1 << 63, (1 << 63) - 1, 0xFFFF, 0x1_0000]

    /// One to four random mutations of `input`; `pool` gives other inputs to splice from.
    static func mutate(_ input: Data, rng: inout FuzzRNG, pool: [Data] = []) -> Data {
        var bytes = [UInt8](input)
        for _ in 0...rng.below(4) { mutateOnce(&bytes, rng: &rng, pool: pool) }
        return Data(bytes)
    }

    private static func mutateOnce(_ bytes: inout [UInt8], rng: inout FuzzRNG, pool: [Data]) {
        let at = rng.below(bytes.count + 1)
        switch rng.below(9) {
        case 0 where at < bytes.count: bytes[at] ^= 1 << UInt8(rng.below(8))
        case 1 where at < bytes.count: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
        case 2 where at < bytes.count: bytes[at] = rng.pick(interesting)
        case 3: bytes.insert(contentsOf: rng.bytes(1 + rng.below(16)), at: at)
        case 4: bytes.removeSubrange(at..<min(bytes.count, at + 1 + rng.below(16)))
        case 5: bytes.removeSubrange(at..<bytes.count)
        case 6: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 1 + rng.below(32))], at: at)
        case 7 where !pool.isEmpty:
            let other = [UInt8](rng.pick(pool))
            bytes = Array(bytes[..<at]) + other[rng.below(other.count + 1)...]
        default:
            let wide = withUnsafeBytes(of: rng.pick(wideValues).bigEndian) { Array($0) }
            bytes.replaceSubrange(at..<min(bytes.count, at + 8), with: wide)
        }
    }
}

/// A JSON document as a tree whose leaves are raw bytes, so a leaf can become anything, even text that
/// is not JSON or not UTF-8, while the rest of the document stays well formed.
indirect enum JSONTree {
    case object([(key: String, value: JSONTree)])
    case array([JSONTree])
    case raw(Data)

    init(parsing data: Data) throws {
        self.init(try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed))
    }

    private init(_ value: Any) {
        if let object = value as? [String: Any] {
            self = .object(object.keys.sorted().map { ($0, JSONTree(object[$0]!)) })
        } else if let array = value as? [Any] {
            self = .array(array.map(JSONTree.init))
        } else {
            self = .raw((try? JSONSerialization.data(withJSONObject: value, options: .fragmentsAllowed)) ?? Data())
        }
    }

    var bytes: Data {
        switch self {
        case .raw(let data): return data
        case .array(let items): return Data("[".utf8) + Self.joined(items.map(\.bytes)) + Data("]".utf8)
        case .object(let fields):
            let members = fields.map { Self.quoted($0.key) + Data(":".utf8) + $0.value.bytes }
            return Data("{".utf8) + Self.joined(members) + Data("}".utf8)
        }
    }

    static func quoted(_ text: String) -> Data {
        (try? JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed)) ?? Data("\"\"".utf8)
    }

    private static func joined(_ parts: [Data]) -> Data {
        parts.enumerated().reduce(into: Data()) { out, part in
            if part.offset > 0 { out.append(UInt8(ascii: ",")) }
            out.append(part.element)
        }
    }

    /// Every node's path (object keys and array indices), the root first.
    var paths: [[PathStep]] {
        switch self {
        case .raw: return [[]]
        case .array(let items):
            return [[]] + items.enumerated().flatMap { i, item in item.paths.map { [.index(i)] + $0 } }
        case .object(let fields):
            return [[]] + fields.flatMap { field in field.value.paths.map { [.key(field.key)] + $0 } }
        }
    }

    enum PathStep: Equatable {
        case key(String)
        case index(Int)
    }

    /// The tree with the node at `path` passed through `change`.
    func replacing(_ path: ArraySlice<PathStep>, _ change: (JSONTree) -> JSONTree) -> JSONTree {
        guard let step = path.first else { return change(self) }
        switch (self, step) {
        case (.array(var items), .index(let i)) where items.indices.contains(i):
            items[i] = items[i].replacing(path.dropFirst(), change)
            return .array(items)
        case (.object(var fields), .key(let key)):
            guard let i = fields.firstIndex(where: { $0.key == key }) else { return self }
            fields[i].value = fields[i].value.replacing(path.dropFirst(), change)
            return .object(fields)
        default:
            return self
        }
    }
}

/// JSON-aware mutations: a value of the wrong kind, an extreme number, a missing or extra field, another
/// message's `type`, deep nesting, bytes that are not UTF-8.
enum JSONMutator {
    /// Values that have broken JSON readers before; raw text, so `1e309` and bare NaN stay as written.
    static let oddValues: [Data] = {
        let texts = [
            "0", "-0", "-0.0", "1", "-1", "1.5", "1e2", "1e309", "-1e309", "1e-400", "NaN", "Infinity", "2147483648",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
            "18446744073709551615", "18446744073709551616", "65536", "256", "\"\"", "\"x\"", "\"0\"", "\"-1\"",
            "null", "true", "false", "[]", "{}", "[null]", "{\"a\":1}", "\"\\ud800\"", "\"\\u0000\"",
            "\"a\\nb\\tc\\r\\nd\\u2028e\"", "\"====\"", "\"AAAA\"", "\"BA==\"", "[0,1,2,3,4,5,6,7,8,9,10,11,12]",
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
            String(repeating: "{\"a\":", count: 300) + "1" + String(repeating: "}", count: 300),
            String(repeating: "[", count: 20_000),
            "\"" + String(repeating: "é", count: 5000) + "\"",
        ]
        return texts.map { Data($0.utf8) } + [
            Data([0x22, 0xFF, 0xFE, 0xC3, 0x22]), Data([0x22, 0xED, 0xA0, 0x80, 0x22]),
        ]
    }()

    /// Field names the messages use, so added fields sometimes land on a real one.
    static let fieldNames = [
        "type", "protocol", "name", "deviceId", "pA", "cA", "eA", "proof", "seq", "box", "page", "index", "button",
        "label", "kind", "appId", "command", "directory", "fromPage", "fromIndex", "toPage", "toIndex", "level",
        "key", "displayId", "maxSide", "fps", "audio", "x", "y", "dx", "dy", "text", "enter", "pages", "code",
    ]

    /// One to three JSON mutations of `tree`; `types` are the wire types to swap in.
    static func mutate(_ tree: JSONTree, rng: inout FuzzRNG, types: [String]) -> JSONTree {
        var tree = tree
        for _ in 0..<(rng.chance(50) ? 1 : 1 + rng.below(3)) { tree = mutateOnce(tree, rng: &rng, types: types) }
        return tree
    }

    private static func mutateOnce(_ tree: JSONTree, rng: inout FuzzRNG, types: [String]) -> JSONTree {
        let path = rng.pick(tree.paths)[...]
        switch rng.below(6) {
        case 0, 1: return tree.replacing(path) { _ in .raw(rng.pick(oddValues)) }
        case 2: return tree.replacing(path) { _ in .raw(randomValue(&rng)) }
        case 3: return tree.replacing([.key("type")]) { _ in .raw(JSONTree.quoted(rng.pick(types))) }
        case 4: return tree.replacing(path.dropLast()) { removingField($0, rng: &rng) }
        default: return tree.replacing(path.dropLast()) { addingField($0, rng: &rng) }
        }
    }

    /// A random number, string or base64 blob (sometimes shaped like a P-256 point or a 32-byte MAC).
    static func randomValue(_ rng: inout FuzzRNG) -> Data {
        switch rng.below(4) {
        case 0: return Data(String(Int64(bitPattern: rng.next()) >> rng.below(64)).utf8)
        case 1: return Data(String(Double(bitPattern: rng.next())).utf8)
        case 2:
            let blob = rng.pick([rng.bytes(rng.below(80)), Data([4]) + rng.bytes(64), rng.bytes(32)])
            return JSONTree.quoted(blob.base64EncodedString())
        default: return JSONTree.quoted(String(decoding: rng.bytes(rng.below(24)), as: UTF8.self))
        }
    }

    private static func removingField(_ node: JSONTree, rng: inout FuzzRNG) -> JSONTree {
        guard case .object(var fields) = node, !fields.isEmpty else { return node }
        fields.remove(at: rng.below(fields.count))
        return .object(fields)
    }

    private static func addingField(_ node: JSONTree, rng: inout FuzzRNG) -> JSONTree {
        guard case .object(var fields) = node else { return node }
        // A repeated key is allowed too: which copy wins is the reader's business, not a crash.
        fields.append((rng.pick(fieldNames), .raw(rng.chance(50) ? rng.pick(oddValues) : randomValue(&rng))))
        return .object(fields)
    }
}
