import DeckDesktop

/// The spare keycodes bound to keysyms the layout does not reach, and the plan for typing a run of strokes
/// with as few keymap changes as possible.
///
/// Bindings are kept between calls (as TigerVNC and Selkies keep theirs): every keymap change makes every X
/// client fetch the keymap again, and remapping per character freezes X. A run is planned in steps; each step
/// binds what it needs in one go and then taps. A keycode is never rebound inside the step that taps it: a
/// key event carries only its keycode, and the receiving client translates it with whatever map it holds when
/// it gets round to the event. When the spares run out, the next step reuses the least recently used ones.
/// The caller lets the desktop settle before binding right after taps (see `XKeyboard`).
struct KeyBindings: Sendable {
    /// One spare keycode given one keysym.
    struct Binding: Hashable, Sendable {
        var keycode: UInt8
        var keysym: UInt32
    }

    /// Bindings to make, then keys to tap.
    struct Step: Equatable, Sendable {
        var bind: [Binding] = []
        var taps: [KeyTap] = []
    }

    /// keysym → the spare keycode that types it.
    private(set) var bound: [UInt32: UInt8] = [:]
    private var lastUse: [UInt8: UInt64] = [:]
    private var clock: UInt64 = 0

    /// Forgets bindings the keymap no longer holds (a new layout loaded over them, someone remapped the key).
    mutating func keepOnly(where stillBound: (Binding) -> Bool) {
        for (keysym, keycode) in bound where !stillBound(Binding(keycode: keycode, keysym: keysym)) {
            bound[keysym] = nil
            lastUse[keycode] = nil
        }
    }

    /// Forgets every binding (the display went away).
    mutating func reset() { self = KeyBindings() }

    /// Plans `strokes` in order. `layout` says where the layout itself puts a keysym (nil: not on level 1 or 2
    /// of the current group); `spares` are the keycodes with no keysyms in the current map. Nil when a keysym
    /// needs a keycode and none is free at all.
    mutating func plan(_ strokes: [KeyStroke], layout: (UInt32) -> LayoutKey?, spares: [UInt8]) -> [Step]? {
        let pool = Set(spares).union(bound.values)
        var steps: [Step] = []
        var step = Step()
        var inStep: Set<UInt8> = []
        for stroke in strokes {
            if let keycode = bound[stroke.keysym] {
                use(keycode, in: &inStep)
                step.taps.append(KeyTap(keycode: keycode, modifiers: stroke.modifiers))
                continue
            }
            if let key = layout(stroke.keysym) {
                let modifiers = key.shifted ? stroke.modifiers.union(.shift) : stroke.modifiers
                step.taps.append(KeyTap(keycode: key.keycode, modifiers: modifiers))
                continue
            }
            var free = freeKeycode(in: pool, excluding: inStep)
            if free == nil, !inStep.isEmpty {
                steps.append(step)
                step = Step()
                inStep = []
                free = freeKeycode(in: pool, excluding: inStep)
            }
            guard let keycode = free else { return nil }
            if let old = bound.first(where: { $0.value == keycode })?.key { bound[old] = nil }
            bound[stroke.keysym] = keycode
            use(keycode, in: &inStep)
            step.bind.append(Binding(keycode: keycode, keysym: stroke.keysym))
            step.taps.append(KeyTap(keycode: keycode, modifiers: stroke.modifiers))
        }
        if !step.taps.isEmpty || !step.bind.isEmpty { steps.append(step) }
        return steps
    }

    /// Binds the `keysyms` the layout does not reach without modifiers, tapping nothing: the keypad's keys,
    /// bound together so a layout costs one round of keymap changes, not one per key as each is first pressed
    /// (a client still fetching the keymap after one change can miss the next; see ARCHITECTURE "Typing").
    mutating func planBindings(_ keysyms: [UInt32], layout: (UInt32) -> LayoutKey?, spares: [UInt8]) -> Step {
        let pool = Set(spares).union(bound.values)
        var inStep: Set<UInt8> = []
        var step = Step()
        for keysym in keysyms where bound[keysym] == nil && layout(keysym).map({ $0.shifted }) ?? true {
            guard let keycode = freeKeycode(in: pool, excluding: inStep) else { break }
            if let old = bound.first(where: { $0.value == keycode })?.key { bound[old] = nil }
            bound[keysym] = keycode
            use(keycode, in: &inStep)
            step.bind.append(Binding(keycode: keycode, keysym: keysym))
        }
        return step
    }

    private mutating func use(_ keycode: UInt8, in step: inout Set<UInt8>) {
        clock += 1
        lastUse[keycode] = clock
        step.insert(keycode)
    }

    /// A keycode of `pool` not in `excluded`: one never bound first (highest keycode first: high keycodes are
    /// rarely real keys), else the least recently used.
    private func freeKeycode(in pool: Set<UInt8>, excluding excluded: Set<UInt8>) -> UInt8? {
        let candidates = pool.subtracting(excluded)
        let used = Set(bound.values)
        if let unused = candidates.subtracting(used).max() { return unused }
        return candidates.min { (lastUse[$0] ?? 0, $0) < (lastUse[$1] ?? 0, $1) }
    }
}
