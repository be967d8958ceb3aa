/// RxSwift's name for `ReactiveError`, so `RxError.timeout` and `catch RxError.noElements` compile.
/// RxSwift's `.disposed(object:)` is `.disposed` here and `.overflow` does not exist (docs/COMING_FROM.md).
public typealias RxError = ReactiveError

/// Errors raised by the reactive core itself.
public enum ReactiveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `timeout` saw no element within its due time.
    case timeout
    /// A `Single` (or `asSingle()`) completed without an element.
    case noElements
    /// A `Single` (or `asSingle()`) got a second element.
    case moreThanOneElement
    /// The work was disposed before it produced a result (async bridges).
    case disposed
    /// `element(at:)` saw the sequence complete before the element at its index.
    case argumentOutOfRange
    /// An error of unknown cause (RxSwift's `RxError.unknown`), for code that must fail
    /// without a more specific error.
    case unknown

    /// A sentence naming the failure.
    public var description: String {
        switch self {
        case .timeout: return "The sequence timed out."
        case .noElements: return "The sequence completed without an element."
        case .moreThanOneElement: return "The sequence produced more than one element."
        case .disposed: return "The subscription was disposed before it produced a result."
        case .argumentOutOfRange: return "The sequence completed before the element at the requested index."
        case .unknown: return "Unknown error occurred."
        }
    }
}
