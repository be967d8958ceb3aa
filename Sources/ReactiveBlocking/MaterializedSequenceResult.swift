/// How a blocked-on sequence ended, with the elements it emitted before (RxBlocking's type).
///
/// ```swift
/// switch Observable.of(1, 2).toBlocking().materialize() {
/// case .completed(let elements): print(elements)          // [1, 2]
/// case .failed(let elements, let error): print(elements, error)
/// }
/// ```
public enum MaterializedSequenceResult<T> {
    /// The sequence completed (or the wait had all it asked for) after these elements.
    case completed(elements: [T])
    /// The sequence failed after these elements; a timed-out wait fails with `ReactiveError.timeout`.
    case failed(elements: [T], error: any Error)
}

extension MaterializedSequenceResult: Sendable where T: Sendable {}

extension MaterializedSequenceResult {
    /// The elements of a completed sequence; throws the error of a failed one.
    func elementsOrThrow() throws -> [T] {
        switch self {
        case .completed(let elements): return elements
        case .failed(_, let error): throw error
        }
    }
}
