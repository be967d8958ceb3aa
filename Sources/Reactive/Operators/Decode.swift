import Foundation

/// A decoder of `Decodable` values from `Data` (RxSwift's `DataDecoder`): `JSONDecoder` and
/// `PropertyListDecoder` are ones.
public protocol DataDecoder {
    /// Decodes a value of `type` from `data`.
    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}

extension ObservableType where Element == Data {
    /// Decodes each element as `type` with `decoder`; a decoding error ends the sequence with it.
    ///
    /// ```swift
    /// bodies.decode(type: User.self, decoder: JSONDecoder())
    /// ```
    public func decode<Item: Decodable & SendableMetatype, Decoder: DataDecoder & Sendable>(
        type: Item.Type, decoder: Decoder
    ) -> Observable<Item> {
        map { try decoder.decode(Item.self, from: $0) }
    }
}
