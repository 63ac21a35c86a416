// Sliders (PROTOCOL §6 "Tiles and sliders", issue 23): a device moves one; what it shows comes back as `keyState`.

extension DeviceMessage {
    /// Moves the slider at `page`/`index` (in the folder at `path`) of the profile the device shows to `value`.
    public struct SetSlider: MessageBody {
        public static let type = "setSlider"
        public var page: Int
        public var index: Int
        public var path: [DeckLayout.Slot]?
        /// 0…1; values outside are clamped.
        public var value: Double

        public init(page: Int, index: Int, path: [DeckLayout.Slot]? = nil, value: Double) {
            self.page = page
            self.index = index
            self.path = path
            self.value = unitInterval(value)
        }

        private enum CodingKeys: String, CodingKey { case page, index, path, value }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                page: try fields.decode(Int.self, forKey: .page), index: try fields.decode(Int.self, forKey: .index),
                path: try fields.decodeIfPresent([DeckLayout.Slot].self, forKey: .path),
                value: try fields.decode(Double.self, forKey: .value))
        }
    }
}
