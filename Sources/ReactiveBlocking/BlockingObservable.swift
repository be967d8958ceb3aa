import Foundation
import Reactive

extension ObservableConvertibleType where Element: Sendable {
    /// RxBlocking's blocking view of this sequence, for tests and command-line tools: its
    /// operators subscribe, hold the calling thread until they have their answer, and dispose.
    /// After `timeout` seconds they throw `ReactiveError.timeout` (`RxError.timeout`).
    ///
    /// ```swift
    /// XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().toArray(), [1, 2, 3])
    /// let user = try provider.rx.request(.user).map(User.self).toBlocking(timeout: 5).single()
    /// ```
    ///
    /// On the main thread the main run loop runs meanwhile, so `MainScheduler` work goes on; any
    /// other thread just waits. Never block inside the work of the serial queue the sequence needs,
    /// nor on an event loop's thread (a task that prefers `HTTPClient`'s `taskExecutor`): the loop
    /// would wait for answers only it can bring. Debug builds stop there, saying so.
    public func toBlocking(timeout: TimeInterval? = nil) -> BlockingObservable<Element> {
        BlockingObservable(timeout: timeout, source: asObservable())
    }

    /// `toBlocking(timeout:)` with the package's `Duration`.
    public func toBlocking(timeout: Duration) -> BlockingObservable<Element> {
        let (seconds, attoseconds) = timeout.components
        return toBlocking(timeout: TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18)
    }
}

/// A sequence seen through blocking operators (RxBlocking's `BlockingObservable`). Each operator
/// subscribes anew.
public struct BlockingObservable<Element: Sendable>: Sendable {
    /// Seconds each operator waits before throwing `ReactiveError.timeout`; `nil` waits forever.
    public let timeout: TimeInterval?
    let source: Observable<Element>
}

extension BlockingObservable {
    /// Every element, once the sequence completes; throws its error.
    public func toArray() throws -> [Element] {
        try collect().elementsOrThrow()
    }

    /// The first element (disposing the subscription at once), or `nil` when the sequence
    /// completes empty; throws an error that comes before an element.
    public func first() throws -> Element? {
        try collect(limit: 1).elementsOrThrow().first
    }

    /// The last element once the sequence completes, or `nil` when it completes empty; throws its error.
    public func last() throws -> Element? {
        try collect().elementsOrThrow().last
    }

    /// The one element of a sequence that completes after it. Throws `ReactiveError.noElements`
    /// for none, `.moreThanOneElement` as soon as a second arrives, or the sequence's error.
    public func single() throws -> Element {
        try only(collect(limit: 2))
    }

    /// The one element that satisfies `predicate` (run on the emitting thread), as `single()`
    /// counts them; a throwing predicate ends the wait with its error.
    public func single(_ predicate: @escaping @Sendable (Element) throws -> Bool) throws -> Element {
        try only(collect(limit: 2, predicate: predicate))
    }

    /// How the sequence ended and what came before: `.completed(elements:)` or
    /// `.failed(elements:error:)`, a timeout failing with `ReactiveError.timeout`. Never throws.
    public func materialize() -> MaterializedSequenceResult<Element> {
        collect()
    }

    private func collect(
        limit: Int? = nil, predicate: (@Sendable (Element) throws -> Bool)? = nil
    ) -> MaterializedSequenceResult<Element> {
        BlockingWait(limit: limit, predicate: predicate).run(source, timeout: timeout)
    }

    private func only(_ result: MaterializedSequenceResult<Element>) throws -> Element {
        let elements = try result.elementsOrThrow()
        guard let element = elements.first else { throw ReactiveError.noElements }
        guard elements.count == 1 else { throw ReactiveError.moreThanOneElement }
        return element
    }
}
