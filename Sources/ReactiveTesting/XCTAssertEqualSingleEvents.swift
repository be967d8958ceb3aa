#if canImport(XCTest)
import Reactive
import XCTest

/// RxTest's `XCTAssertEqual` over `SingleEvent`s: equal when both lists have the same length and
/// each pair matches as `MaybeEvent`'s `==` says (`.success` by element, `.failure` by error).
///
/// A `SingleEvent` is Swift's `Result<Element, any Error>`, which cannot be `Equatable` (the
/// standard library's conformance needs an `Equatable` error, and a type conforms only once), so
/// as in RxTest only these assertions compare them.
/// ```swift
/// XCTAssertEqual(outcomes, [.success(1), .failure(TestError())])
/// ```
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [SingleEvent<Element>], _ rhs: [SingleEvent<Element>], file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertTrue(singleEventsAreEqual(lhs, rhs), "(\(lhs)) is not equal to (\(rhs))", file: file, line: line)
}

/// `XCTAssertEqual` over recorded `SingleEvent`s: the same ticks and equal events, as above.
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [Recorded<SingleEvent<Element>>], _ rhs: [Recorded<SingleEvent<Element>>],
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertTrue(singleEventsAreEqual(lhs, rhs), "(\(lhs)) is not equal to (\(rhs))", file: file, line: line)
}
#endif

/// Whether two lists of single events are equal, each event compared as the `MaybeEvent` it is.
func singleEventsAreEqual<Element: Equatable>(_ lhs: [SingleEvent<Element>], _ rhs: [SingleEvent<Element>]) -> Bool {
    lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { left, right in MaybeEvent(left) == MaybeEvent(right) }
}

/// Whether two lists of recorded single events have the same ticks and equal events.
func singleEventsAreEqual<Element: Equatable>(
    _ lhs: [Recorded<SingleEvent<Element>>], _ rhs: [Recorded<SingleEvent<Element>>]
) -> Bool {
    lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { left, right in
        left.time == right.time && MaybeEvent(left.value) == MaybeEvent(right.value)
    }
}

extension MaybeEvent {
    /// The same outcome: a success, or the failure as `.error`.
    init(_ single: SingleEvent<Element>) {
        switch single {
        case .success(let element): self = .success(element)
        case .failure(let error): self = .error(error)
        }
    }
}
