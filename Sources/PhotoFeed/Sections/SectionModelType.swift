/// A section of a list: its items, and a way to rebuild it with other items.
public protocol SectionModelType {
    /// The type of the rows.
    associatedtype Item
    /// The rows of the section, in order.
    var items: [Item] { get }
    /// A section of the same kind as `original` holding `items`.
    init(original: Self, items: [Item])
}
