/// The elements of an observable as an async sequence: what `observable.values` returns.
///
/// The subscription is made when the sequence is made and its elements are buffered until
/// iterated. The loop ends at completion and throws the error; leaving it early or dropping the
/// sequence disposes the subscription; iterating in a cancelled task, or cancelling the
/// iterating task, throws `CancellationError`. Iterate it once.
/// ```swift
/// for try await value in observable.values { print(value) }
/// ```
public struct ObservableValuesSequence<Element: Sendable>: AsyncSequence, Sendable {
    /// The failure type of the loop.
    public typealias Failure = any Error

    let buffer: AsyncElementBuffer<Element>

    /// The iterator, pulling from the subscription's buffer.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let buffer: AsyncElementBuffer<Element>

        /// The next element, `nil` after completion.
        public mutating func next() async throws -> Element? {
            try await buffer.next()
        }
    }

    /// The iterator over the subscription's elements.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(buffer: buffer)
    }
}
