import Foundation
import Testing

@testable import DeckKit

/// Seeded mutation tests of everything in DeckKit that reads bytes a peer chose. A trap here would end the
/// daemon for every device, so each test feeds thousands of mutated fixtures and checks the properties
/// that matter: no trap, a decoded message encodes and decodes back to itself, error texts never quote
/// what was typed, a refused edit leaves the layout as it was.
@Suite struct MessageFuzzTests {
    static let fixtures: [Data] = {
        let directory = Fixtures.root.appendingPathComponent("messages")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().compactMap { try? Data(contentsOf: directory.appendingPathComponent($0)) }
    }()
    // Sorted: dictionary order changes from run to run, and the seed must pick the same types every time.
    static let types = (DeviceMessage.readers.keys.sorted() + HostMessage.readers.keys.sorted()) + ["", "Hello", "x"]
    /// Put into every string of the inputs; error texts must never repeat it.
    static let marker = "SECRETmarker"

    /// A fixture mutated as JSON, as bytes, or both.
    static func mutated(_ rng: inout FuzzRNG) -> Data {
        let seed = rng.pick(fixtures)
        guard rng.chance(75), let tree = try? JSONTree(parsing: seed) else {
            return ByteMutator.mutate(seed, rng: &rng, pool: fixtures)
        }
        // Sometimes every string is the marker (enum values then fail, so not always).
        let marked = rng.chance(30) ? withMarker(tree) : tree
        let json = JSONMutator.mutate(marked, rng: &rng, types: types).bytes
        return rng.chance(15) ? ByteMutator.mutate(json, rng: &rng, pool: fixtures) : json
    }

    /// Replaces every string except `type` with the marker, so a leak of any value shows.
    static func withMarker(_ tree: JSONTree, key: String = "") -> JSONTree {
        switch tree {
        case .raw(let data) where data.first == UInt8(ascii: "\"") && key != "type":
            return .raw(JSONTree.quoted(marker))
        case .raw: return tree
        case .array(let items): return .array(items.map { withMarker($0) })
        case .object(let fields): return .object(fields.map { ($0.key, withMarker($0.value, key: $0.key)) })
        }
    }

    /// Decodes, and checks what a decoded or refused message must satisfy; true when it decoded.
    static func check<M: WireMessage>(_: M.Type, _ data: Data, _ label: String) -> Bool {
        let message: M
        do {
            message = try M.decode(data)
        } catch {
            #expect(!error.wireMessage.contains(marker), "\(label): the error quotes a value")
            return false
        }
        #expect((try? M.decode(message.encode())) == message, "\(label): encode/decode round trip")
        return true
    }

    @Test func mutatedMessagesDecodeOrAreRefused() {
        var rng = FuzzRNG(seed: 0x5EED_0001)
        var decoded = (device: 0, host: 0)
        let iterations = 6000
        for i in 0..<iterations {
            let data = Self.mutated(&rng)
            if Self.check(DeviceMessage.self, data, "device #\(i)") { decoded.device += 1 }
            if Self.check(HostMessage.self, data, "host #\(i)") { decoded.host += 1 }
            if let edit = (try? DeviceMessage.decode(data))?.layoutEdit { LayoutFuzzTests.checkEdit(edit, "#\(i)") }
        }
        // A mutator that only ever broke messages would test nothing but the JSON parser.
        print("fuzz: \(decoded) of \(iterations) decoded")
        #expect(decoded.device > iterations / 20 && decoded.device < iterations * 9 / 10)
        #expect(decoded.host > iterations / 20 && decoded.host < iterations * 9 / 10)
    }

    @Test func layoutFieldsOfEveryKindAreRefusedOrKeptWhole() {
        var rng = FuzzRNG(seed: 0x5EED_0002)
        let layout = Self.fixtures.first { (try? HostMessage.decode($0))?.type == "layout" }
        let tree = try? JSONTree(parsing: layout ?? Data())
        #expect(tree != nil)
        var kept = 0
        for i in 0..<1500 {
            guard let tree else { break }
            // Only the layout document, so most mutations reach the pages and buttons themselves.
            let data = JSONMutator.mutate(tree, rng: &rng, types: ["layout"]).bytes
            guard case .layout(let read)? = try? HostMessage.decode(data) else { continue }
            #expect(LayoutFuzzTests.isNormal(read.layout), "#\(i)")
            kept += 1
        }
        print("fuzz: \(kept) of 1500 layouts read")
        #expect(kept > 150)
    }
}

/// Edits with every kind of slot number, applied to layouts of a few random shapes.
@Suite struct LayoutFuzzTests {
    static let extremes = [Int.min, Int.min + 1, -13, -12, -1, 0, 1, 2, 11, 12, 13, 100, Int.max - 1, Int.max]

    /// The page rule holds: the grid's slots per page (12 unless resized), the last page empty, never two empty
    /// pages at the end.
    static func isNormal(_ layout: DeckLayout) -> Bool {
        let pages = layout.pages
        guard let last = pages.last, pages.allSatisfy({ $0.count == layout.slots }) else { return false }
        let trailingEmpty = pages.count > 1 && pages[pages.count - 2].allSatisfy { $0 == nil }
        return last.allSatisfy { $0 == nil } && !trailingEmpty
    }

    static func checkEdit(_ edit: any LayoutEdit, _ label: String) {
        for before in [DeckLayout.empty, sample] {
            var layout = before
            do {
                try edit.apply(to: &layout)
                #expect(isNormal(layout), "\(label)")
            } catch {
                #expect(layout == before, "\(label): a refused edit changed the layout")
            }
        }
    }

    static let sample: DeckLayout = {
        var layout = DeckLayout()
        try? layout.set(page: 0, index: 0, button: Button(label: "a", kind: .command("true")))
        try? layout.set(page: 1, index: 11, button: Button(label: "b", kind: .terminal(directory: "")))
        return layout
    }()

    func slot(_ rng: inout FuzzRNG, pages: Int) -> Int {
        rng.chance(60) ? rng.pick(Self.extremes + [pages - 1, pages]) : rng.below(pages + 2) - 1
    }

    @Test func editsWithExtremeSlotsKeepThePageRule() {
        var rng = FuzzRNG(seed: 0x5EED_0003)
        var layout = DeckLayout()
        var applied = 0
        for i in 0..<20_000 {
            let before = layout
            let n = layout.pages.count
            let (page, index) = (slot(&rng, pages: n), slot(&rng, pages: n))
            let button = Button(label: "\(i)", kind: .command("echo \(i)"))
            do {
                switch rng.below(4) {
                case 0, 1: try layout.set(page: page, index: index, button: button)
                case 2: try layout.clear(page: page, index: index)
                default:
                    try layout.move(
                        from: .init(page: page, index: index),
                        to: .init(page: slot(&rng, pages: n), index: slot(&rng, pages: n)))
                }
                applied += 1
                #expect(Self.isNormal(layout), "#\(i)")
            } catch {
                #expect(layout == before, "#\(i): a refused edit changed the layout")
            }
            _ = layout.button(page: page, index: index)
            if layout.pages.count > 6 { layout = DeckLayout() }
        }
        #expect(applied > 2000)
    }
}
