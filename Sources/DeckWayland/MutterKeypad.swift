import DeckActions

extension MutterDesktop {
    /// Keypad keys typed through Mutter's RemoteDesktop (the same session as the pointer, or one of their own).
    public var keypad: KeyInjector {
        let input = self.input
        return KeyInjector { key in
            do {
                try await input.tapKeysym(Self.keysym(for: key))
                return .ok
            } catch InputSinkError.noKey {
                return .failed("no key for \(key.rawValue) on this keyboard layout")
            } catch {
                return .failed("no display")
            }
        }
    }

    /// Return and BackSpace by name; the other keypad keys are single ASCII characters, whose keysyms equal
    /// their code (as on X11).
    static func keysym(for key: KeypadKey) -> UInt32 {
        switch key {
        case .enter: 0xff0d
        case .backspace: 0xff08
        default: key.rawValue.unicodeScalars.first!.value
        }
    }
}
