extension Changeset {
    /// A row that is in both lists but not in the same place: `from` in the old list, `to` in the new one.
    public struct ItemMove: Hashable, Sendable {
        /// The row's path in the old list.
        public var from: ItemPath
        /// The row's path in the new list.
        public var to: ItemPath

        /// A move of the row at `from` to `to`, both as paths in the sections before the change.
        public init(from: ItemPath, to: ItemPath) {
            self.from = from
            self.to = to
        }
    }
}
