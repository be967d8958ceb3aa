/// The elements of an `Infallible` as an async sequence that never throws: what
/// `infallible.values` returns (RxSwift's `AsyncStream`).
///
/// The subscription is made when the sequence is made and its elements are buffered until
/// iterated. The loop ends at completion; leaving it early or dropping the sequence disposes the
/// subscription; iterating in a cancelled task, or cancelling the iterating task, ends the loop
/// (as an `AsyncStream` ends) and disposes the subscription. Iterate it once.
/// ```swift
/// for await value in infallible.values { print(value) }
/// ```
public struct InfallibleValuesSequence<Element: Sendable>: AsyncSequence, Sendable {
    /// The loop never throws.
    public typealias Failure = Never

    let buffer: AsyncElementBuffer<Element>

    /// The iterator, pulling from the subscription's buffer.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let buffer: AsyncElementBuffer<Element>

        /// The next element, `nil` after completion or once the task is cancelled.
        public mutating func next() async -> Element? {
            // An infallible source ends only by completing; the one error left is the task's cancellation.
            (try? await buffer.next()) ?? nil
        }
    }

    /// The iterator over the subscription's elements.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(buffer: buffer)
    }
}

extension InfallibleType where Element: Sendable {
    /// The elements as an async sequence, subscribed at once and buffered; the loop ends at
    /// completion or when the task is cancelled, and never throws.
    ///
    /// ```swift
    /// for await value in relay.asInfallible().values { print(value) }
    /// ```
    public var values: InfallibleValuesSequence<Element> {
        InfallibleValuesSequence(buffer: AsyncElementBuffer(asObservable()))
    }
}
