/// The `.rx` namespace: reactive extensions of a type live on `Rx<Base>`.
///
/// ```swift
/// extension Rx where Base: MyClient { func fetch() -> Single<Data> { ... } }
/// client.rx.fetch()
/// ```
public struct Rx<Base> {
    /// The value whose `.rx` this is.
    public let base: Base

    /// The `.rx` namespace of `base`; extensions add reactive members here.
    public init(_ base: Base) {
        self.base = base
    }
}

extension Rx: Sendable where Base: Sendable {}

/// Types that offer `.rx`.
public protocol RxCompatible {
    /// The type whose extensions `.rx` exposes.
    associatedtype RxBase

    /// The reactive extensions of this value.
    var rx: Rx<RxBase> { get }

    /// The reactive extensions of this type.
    static var rx: Rx<RxBase>.Type { get }
}

extension RxCompatible {
    /// The reactive extensions of this value.
    public var rx: Rx<Self> { Rx(self) }

    /// The reactive extensions of this type.
    public static var rx: Rx<Self>.Type { Rx<Self>.self }
}
