extension Changeset {
    /// The position of a row: its section's index and its index inside that section.
    public struct ItemPath: Hashable, Comparable, Sendable, CustomStringConvertible {
        /// The section's index.
        public var section: Int
        /// The row's index inside the section.
        public var item: Int

        /// The row `item` of section `section`, both counted from zero.
        public init(section: Int, item: Int) {
            self.section = section
            self.item = item
        }

        /// Orders by section, then by row.
        public static func < (lhs: ItemPath, rhs: ItemPath) -> Bool {
            (lhs.section, lhs.item) < (rhs.section, rhs.item)
        }

        /// `section.item`, e.g. `0.3`.
        public var description: String {
            "\(section).\(item)"
        }
    }
}
