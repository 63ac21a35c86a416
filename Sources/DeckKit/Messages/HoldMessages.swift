// Holding a key (PROTOCOL §6 "Hold while pressed", protocol 3): a hotkey key with `hold` keeps its chord down while
// the device's finger is on the keycap. A device that knows it sends `pressDown` when the finger lands on such a
// key and `pressUp` when it lifts; the host releases the chord at `pressUp`, when the connection closes, or after
// `maxSeconds`. A device that does not know it sends `press`, which taps the chord.

extension DeviceMessage {
    /// The finger landed on a key (a hotkey with `hold`: its chord goes down and stays down).
    public struct PressDown: MessageBody {
        public static let type = "pressDown"
        public var page: Int
        public var index: Int
        /// The folder keys down to the folder the key is in; absent: the deck itself.
        public var path: [DeckLayout.Slot]?

        public init(page: Int, index: Int, path: [DeckLayout.Slot]? = nil) {
            self.page = page
            self.index = index
            self.path = path
        }

        /// The same key as a `press`, for the answer and for a key that is not held.
        public var press: Press { Press(page: page, index: index, path: path) }
    }

    /// The finger left the key `pressDown` named (lifted, or the gesture was cancelled): what it holds comes up.
    public struct PressUp: MessageBody {
        public static let type = "pressUp"
        public var page: Int
        public var index: Int
        public var path: [DeckLayout.Slot]?

        public init(page: Int, index: Int, path: [DeckLayout.Slot]? = nil) {
            self.page = page
            self.index = index
            self.path = path
        }
    }
}

/// How long a held chord stays down at most when no `pressUp` comes (a device that froze with the finger down).
public enum KeyHold {
    public static let maxSeconds = 60
}
