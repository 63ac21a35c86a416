import DeckDesktop

extension MutterDesktop {
    /// Text and the keyboard row's keys through Mutter's RemoteDesktop keysyms (`NotifyKeyboardKeysym`), in the
    /// same session as the pointer and the keypad. Mutter types a keysym only when a key of the current layout
    /// has it, and a keysym it cannot place fails only in its log, so every keysym is checked against the
    /// layout first: a text with a character the layout lacks fails as a whole, naming that character, and
    /// types nothing.
    public var typing: TypingSink {
        WaylandStrokes.typing { await self.type($0) }
    }

    /// Types the strokes in order (`KeysymSession.type`); returns once Mutter has them all.
    func type(_ strokes: [WaylandStroke]) async -> ActionResult {
        await onInputQueue {
            guard let session = self.inputSession() else { return .failed("no display") }
            do { return try session.type(strokes) } catch {
                self.forget(session)
                return .failed("no display")
            }
        }
    }
}
