extension Photo.Item {
    /// The image URLs of an item.
    public struct Media: Codable, Sendable, Hashable {
        /// The medium-size image URL.
        public var m: String

        /// Creates the media of an item.
        public init(m: String) {
            self.m = m
        }
    }
}
