import Foundation

// One input is one text message. Properties: no trap; a message that decodes encodes and decodes back to
// itself; a layout edit leaves the page rule intact or the layout unchanged.

private let sample: DeckLayout = {
    var layout = DeckLayout()
    try? layout.set(page: 0, index: 0, button: Button(label: "a", kind: .command("true")))
    try? layout.set(page: 1, index: 11, button: Button(label: "b", kind: .terminal(directory: "")))
    return layout
}()

private func roundTrip<M: WireMessage>(_: M.Type, _ data: Data) -> M? {
    guard let message = try? M.decode(data) else { return nil }
    precondition((try? M.decode(message.encode())) == message, "round trip changed the message")
    return message
}

private func isNormal(_ layout: DeckLayout) -> Bool {
    guard let last = layout.pages.last, layout.pages.allSatisfy({ $0.count == 12 }) else { return false }
    let twoEmpty = layout.pages.count > 1 && layout.pages[layout.pages.count - 2].allSatisfy { $0 == nil }
    return last.allSatisfy { $0 == nil } && !twoEmpty
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    // The transport hands the host a String: invalid UTF-8 arrives as U+FFFD.
    let text = Data(String(decoding: data, as: UTF8.self).utf8)
    if let edit = roundTrip(DeviceMessage.self, text)?.layoutEdit {
        for before in [DeckLayout.empty, sample] {
            var layout = before
            if (try? edit.apply(to: &layout)) != nil {
                precondition(isNormal(layout), "an edit broke the page rule")
            } else {
                precondition(layout == before, "a refused edit changed the layout")
            }
        }
    }
    _ = roundTrip(HostMessage.self, data)
    return 0
}
