import DeckDesktop

extension MutterDesktop {
    /// Keypad keys typed through Mutter's RemoteDesktop (the same session as the pointer, or one of their own).
    public var keypad: KeyInjector {
        let input = self.input
        return KeyInjector { key in
            do {
                try await input.tapKeysym(WaylandInput.keysym(for: key))
                return .ok
            } catch InputSinkError.noKey {
                return .failed("no key for \(key.rawValue) on this keyboard layout")
            } catch {
                return .failed("no display")
            }
        }
    }
}
