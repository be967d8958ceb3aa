/// A page of a list as `{hasMore, list}`, the payload of `ResponseEnvelope.dataEnvelope` APIs.
public struct ListPage<Item: Decodable>: Decodable {
    /// Whether a further page exists.
    public let hasMore: Bool
    /// The items of this page.
    public let list: [Item]

    /// A page built in code, for stubs and tests; decoding fills one from `{hasMore, list}`.
    public init(hasMore: Bool, list: [Item]) {
        self.hasMore = hasMore
        self.list = list
    }
}

extension ListPage: Equatable where Item: Equatable {}

extension ListPage: Sendable where Item: Sendable {}
