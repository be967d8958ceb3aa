#if canImport(XCTest)
import Reactive
import XCTest

/// RxTest's `XCTAssertRecordedElements`: asserts that the elements of `stream`'s `.next`
/// events, in order and ignoring their ticks and the terminal event, equal `elements`.
///
/// ```swift
/// XCTAssertRecordedElements(observer.events, [1, 2, 3])
/// ```
public func XCTAssertRecordedElements<Element: Equatable>(
    _ stream: [Recorded<Event<Element>>], _ elements: [Element], file: StaticString = #filePath, line: UInt = #line
) {
    let recorded = stream.compactMap { recorded -> Element? in
        if case .next(let element) = recorded.value { return element }
        return nil
    }
    XCTAssertEqual(recorded, elements, file: file, line: line)
}
#endif
