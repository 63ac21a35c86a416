import DeckDesktop
import Foundation

extension UinputInput {
    /// What typing a list of strokes came to.
    enum Strike: Equatable, Sendable {
        case typed
        /// No key of the layout types this stroke; nothing was typed.
        case missing(WaylandStroke)
        case failed(UinputError)
    }

    /// Keypad keys, typed with the keys of the compositor's layout.
    public var keypad: KeyInjector {
        KeyInjector { key in
            switch await self.strike([WaylandStroke(keysym: WaylandInput.keysym(for: key))]) {
            case .typed: .ok
            case .missing: .failed("no key for \(key.rawValue) on this keyboard layout")
            case .failed(let error): .failed(error.reason)
            }
        }
    }

    /// Text and the keyboard row's keys. A text with a character the layout cannot type fails as a whole,
    /// naming that character, and types nothing (as on GNOME).
    public var typing: TypingSink {
        WaylandStrokes.typing { await self.type($0) }
    }

    func type(_ strokes: [WaylandStroke]) async -> ActionResult {
        switch await strike(strokes) {
        case .typed: .ok
        case .missing(let stroke): .failed(WaylandStrokes.cannotType(stroke))
        case .failed(let error): .failed(error.reason)
        }
    }

    /// Types the strokes in order, each key with its own modifiers and those of its level held; checks every
    /// stroke against the keymap before the first key goes down.
    func strike(_ strokes: [WaylandStroke]) async -> Strike {
        await onQueue {
            let fd: Int32
            do throws(UinputError) {
                // The keyboard first: a compositor's seat may have no keymap to read until a keyboard exists.
                fd = try self.keyboardDevice()
            } catch { return .failed(error) }
            guard let keymap = self.currentKeymap() else { return .failed(.noKeymap) }
            var plans: [[UInt16]] = []
            for stroke in strokes {
                guard let codes = Self.codes(stroke, keymap) else { return .missing(stroke) }
                plans.append(codes)
            }
            do throws(UinputError) {
                for (index, codes) in plans.enumerated() {
                    if index > 0, self.timing.paceMicroseconds > 0 { usleep(self.timing.paceMicroseconds) }
                    try self.strike(codes, on: fd)
                }
                return .typed
            } catch { return .failed(error) }
        }
    }

    /// The keys to press for a stroke, in order and each once: its modifier keys (with their levels' own),
    /// then those of the key's level, then the key.
    static func codes(_ stroke: WaylandStroke, _ keymap: UinputKeymap) -> [UInt16]? {
        var codes: [UInt16] = []
        for keysym in stroke.modifiers + [stroke.keysym] {
            guard let key = keymap.key(for: keysym) else { return nil }
            for code in key.codes where !codes.contains(code) { codes.append(code) }
        }
        return codes
    }

    /// On the queue: presses the keys in order and releases them in reverse.
    private func strike(_ codes: [UInt16], on fd: Int32) throws(UinputError) {
        let pressed = Result { () throws(UinputError) in try send(UinputEvents.keys(codes, pressed: true), to: fd) }
        // Released even when the press failed part-way: a modifier left down would change every later key. A failed
        // write has closed the device (its fd number may be reused), and the kernel released its keys itself.
        if keyboard == fd { try send(UinputEvents.keys(codes, pressed: false), to: fd) }
        try pressed.get()
    }
}

extension UinputKeymap {
    /// The keymap the compositor at `display` gives its clients, which is what it applies to our keyboard too.
    /// With no Wayland keymap to read (no display, or a seat with no keyboard yet), one compiled from the
    /// system's XKB defaults: xkbcommon's defaults and XKB_DEFAULT_LAYOUT etc., what a compositor configured by
    /// nothing else gives a new keyboard.
    static func current(display: String?) -> UinputKeymap? {
        if let read = WaylandKeymap.text(display: display), let keymap = compile(text: read.text, group: read.group) {
            return keymap
        }
        return compile()
    }
}
