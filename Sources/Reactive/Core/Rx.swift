/// The `.rx` namespace: reactive extensions of a type live on `Rx<Base>` (RxSwift's `Reactive`,
/// a name the module `Reactive` keeps for itself: write `extension Rx where Base: ...`).
///
/// ```swift
/// extension Rx where Base: MyClient { func fetch() -> Single<Data> { ... } }
/// client.rx.fetch()
/// ```
///
/// Where `Base` is a `Sendable` class, each writable property is also a `Binder` through dynamic
/// member lookup, as RxSwift's `Reactive` gives: `names.bind(to: label.rx.text)`.
@dynamicMemberLookup
public struct Rx<Base> {
    /// The value whose `.rx` this is.
    public let base: Base

    /// The `.rx` namespace of `base`; extensions add reactive members here.
    public init(_ base: Base) {
        self.base = base
    }
}

extension Rx: Sendable where Base: Sendable {}

extension Rx where Base: AnyObject & Sendable {
    /// A `Binder` that sets `keyPath` of `base` to each element on the main queue, as long as
    /// `base` lives (RxSwift's `object.rx.property`).
    ///
    /// ```swift
    /// titles.bind(to: label.rx.text)
    /// ```
    public subscript<Property: Sendable>(
        dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property> & Sendable
    ) -> Binder<Property> {
        Binder(base) { base, value in base[keyPath: keyPath] = value }
    }
}

/// Types that offer `.rx`.
public protocol RxCompatible {
    /// The type whose extensions `.rx` exposes.
    associatedtype RxBase

    /// The reactive extensions of this value; settable, as RxSwift's, so that `mutating`
    /// members of an `Rx` extension can be called on it.
    var rx: Rx<RxBase> { get set }

    /// The reactive extensions of this type.
    static var rx: Rx<RxBase>.Type { get set }
}

/// RxSwift's name of `RxCompatible`, so that `extension MyType: ReactiveCompatible {}` compiles
/// unchanged. (RxSwift's `Reactive` itself is `Rx` here: the module is named `Reactive`.)
public typealias ReactiveCompatible = RxCompatible

extension RxCompatible {
    /// The reactive extensions of this value; setting it changes nothing.
    public var rx: Rx<Self> {
        get { Rx(self) }
        set {}
    }

    /// The reactive extensions of this type; setting it changes nothing.
    public static var rx: Rx<Self>.Type {
        get { Rx<Self>.self }
        set {}
    }
}
