import Foundation

// One input is one text message and, read as arbitrary Unicode, the text itself. A typeText is decoded (and
// must round trip) and its text cleaned; a pressKey is decoded and its chord checked; the whole input is also
// cleaned, chunked and tried (whole, and scalar by scalar) as a key character, and its bytes pick modifiers.
// Properties: no trap; TextInput.clean keeps at most maxCharacters characters and maxBytes UTF-8 bytes, no
// character over maxScalarsPerCharacter scalars, no line break or tab, and cleaning its own output changes
// nothing; TextInput.chunks rejoins to its input scalar for scalar, no empty piece, each piece at most
// maxChunkUTF16 UTF-16 units unless it is one character; KeyChord.character(in:) gives only one printable
// scalar; a chord holds every modifier at most once (the named key's own first, then those asked for) and
// its keysym follows the Latin-1 / 0x01000000 rule; a pressKey made from any chord round trips.

private let lineBreaks: Set<Unicode.Scalar> = ["\n", "\r", "\t", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"]

private func checkClean(_ input: String) {
    let cleaned = TextInput.clean(input)
    precondition(cleaned.count <= TextInput.maxCharacters, "more than maxCharacters characters")
    precondition(cleaned.utf8.count <= TextInput.maxBytes, "more than maxBytes bytes")
    for character in cleaned {
        precondition(
            character.unicodeScalars.count <= TextInput.maxScalarsPerCharacter,
            "a character over maxScalarsPerCharacter scalars")
        precondition(!character.isNewline, "a line break left")
    }
    precondition(!cleaned.unicodeScalars.contains(where: lineBreaks.contains), "a line break or tab left")
    precondition(
        Array(TextInput.clean(cleaned).unicodeScalars) == Array(cleaned.unicodeScalars), "cleaning twice changed it")
    checkChunks(cleaned)
}

private func checkChunks(_ text: String) {
    let pieces = TextInput.chunks(text)
    precondition(
        Array(pieces.joined().unicodeScalars) == Array(text.unicodeScalars), "the chunks do not rejoin to the text")
    for piece in pieces {
        precondition(!piece.isEmpty, "an empty chunk")
        precondition(piece.utf16.count <= TextInput.maxChunkUTF16 || piece.count == 1, "a chunk too long")
    }
}

private func checkChord(_ chord: KeyChord, roundTrip: Bool = true) {
    let held = chord.heldModifiers
    precondition(Set(held).count == held.count, "a modifier held twice")
    precondition(Set(held) == Set(chord.modifiers).union(impliedModifiers(chord)), "a modifier lost or added")
    precondition(
        Array(held.prefix(impliedModifiers(chord).count)) == impliedModifiers(chord), "own modifiers not first")
    switch chord.key {
    case .named(let named):
        precondition(chord.keysym == named.keysym && chord.keysym != 0, "a named key without its keysym")
        precondition(chord.name == named.rawValue, "a named key's wire name")
    case .character(let scalar):
        let latin1 = (0x20...0x7e).contains(scalar.value) || (0xa0...0xff).contains(scalar.value)
        precondition(chord.keysym == (latin1 ? scalar.value : 0x0100_0000 | scalar.value), "a character's keysym")
        precondition(KeyChord.character(in: chord.name) == scalar, "a character key that does not read back")
    }
    // Only what the decoder accepts: at most one of each modifier.
    guard roundTrip, Set(chord.modifiers).count == chord.modifiers.count else { return }
    let message = DeviceMessage.pressKey(DeviceMessage.PressKey(chord: chord))
    guard let back = try? DeviceMessage.decode(message.encode()) else {
        preconditionFailure("a pressKey the host made does not decode")
    }
    precondition(back == message, "pressKey does not round trip")
}

private func impliedModifiers(_ chord: KeyChord) -> [KeyChord.Modifier] {
    if case .named(let named) = chord.key { return named.impliedModifiers }
    return []
}

private func checkCharacter(_ text: String, modifiers: [KeyChord.Modifier], roundTrip: Bool = true) {
    guard let scalar = KeyChord.character(in: text) else { return }
    precondition(text.unicodeScalars.count == 1 && text.unicodeScalars.first == scalar, "not the one scalar")
    let excluded: [Unicode.GeneralCategory] = [
        .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse,
    ]
    precondition(!excluded.contains(scalar.properties.generalCategory), "an unprintable key character")
    checkChord(KeyChord(character: scalar, modifiers: modifiers), roundTrip: roundTrip)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    // The transport hands the host a String: invalid UTF-8 arrives as U+FFFD.
    let text = String(decoding: data, as: UTF8.self)
    if let message = try? DeviceMessage.decode(Data(text.utf8)) {
        precondition((try? DeviceMessage.decode(message.encode())) == message, "round trip changed the message")
        switch message {
        case .typeText(let typed): checkClean(typed.text)
        case .pressKey(let press):
            precondition(press.chord.modifiers.count <= 4, "a pressKey with more than four modifiers")
            checkChord(press.chord)
        default: break
        }
    }
    checkClean(text)
    checkChunks(text)
    // Modifiers, repeats allowed, from the first bytes; the named keys and the characters of the input.
    let all = KeyChord.Modifier.allCases
    let modifiers = data.prefix(6).map { all[Int($0) % all.count] }
    let named = KeyChord.Named.allCases
    checkChord(KeyChord(named[Int(data.first ?? 0) % named.count], modifiers: modifiers))
    checkCharacter(text, modifiers: modifiers)
    // JSON is the slow part: the first few scalars go through a pressKey round trip, the rest only the rules.
    for (index, scalar) in text.unicodeScalars.prefix(64).enumerated() {
        checkCharacter(String(scalar), modifiers: Array(modifiers.prefix(index % 4)), roundTrip: index < 4)
    }
    return 0
}
