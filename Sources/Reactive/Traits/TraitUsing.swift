/// RxSwift's `using(_:primitiveSequenceFactory:)` on the traits: a resource made per
/// subscription and disposed when that subscription ends (result, error or dispose).
extension Single {
    /// Makes a resource for each subscription, runs the single `primitiveSequenceFactory`
    /// builds with it, and disposes the resource afterwards; a throw of either factory fails.
    ///
    /// ```swift
    /// Single.using({ Connection() }, primitiveSequenceFactory: { $0.fetch() })
    /// ```
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping @Sendable () throws -> Resource,
        primitiveSequenceFactory: @escaping @Sendable (Resource) throws -> Single<Element>
    ) -> Single<Element> {
        Single(unchecked: .using(resourceFactory, observableFactory: { try primitiveSequenceFactory($0).asObservable() }))
    }
}

extension Maybe {
    /// `Single.using` for a `Maybe`.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping @Sendable () throws -> Resource,
        primitiveSequenceFactory: @escaping @Sendable (Resource) throws -> Maybe<Element>
    ) -> Maybe<Element> {
        Maybe(unchecked: .using(resourceFactory, observableFactory: { try primitiveSequenceFactory($0).asObservable() }))
    }
}

extension Completable {
    /// `Single.using` for a `Completable`.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping @Sendable () throws -> Resource,
        primitiveSequenceFactory: @escaping @Sendable (Resource) throws -> Completable
    ) -> Completable {
        Completable(unchecked: .using(resourceFactory, observableFactory: { try primitiveSequenceFactory($0).asObservable() }))
    }
}
