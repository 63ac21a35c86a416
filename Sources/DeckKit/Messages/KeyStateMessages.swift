// Live looks (PROTOCOL §6 "Live looks", issue 23): what a key shows from its state command or `touchdeck key set`.

extension HostMessage {
    /// One key's live look, sent to every device that shows its profile when it changes (at most 10 times a second
    /// per key) and after a device's layout. An empty `look` without `error` clears it: the key shows its
    /// configured look again.
    public struct KeyState: MessageBody {
        public static let type = "keyState"
        public var profile: String
        public var page: Int
        public var index: Int
        /// The folder keys down to the key's folder; absent: the deck itself.
        public var path: [DeckLayout.Slot]?
        public var look: LiveLook
        /// Why the key's state command failed (it timed out, printed a bad line, crashed); the key shows a mark.
        public var error: String?

        public init(
            profile: String, page: Int, index: Int, path: [DeckLayout.Slot]? = nil, look: LiveLook,
            error: String? = nil
        ) {
            self.profile = profile
            self.page = page
            self.index = index
            self.path = path
            self.look = look
            self.error = error
        }
    }
}
