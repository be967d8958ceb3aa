import Reactive
import TestSupport
import XCTest

final class SerialDisposableTests: LeakCheckingTestCase {
    func testAssigningDisposesThePrevious() {
        let calls = Recorder<String>()
        let serial = SerialDisposable()
        serial.disposable = Disposables.create { calls.append("first") }
        serial.disposable = Disposables.create { calls.append("second") }
        XCTAssertEqual(calls.values, ["first"])
        serial.dispose()
        XCTAssertEqual(calls.values, ["first", "second"])
        XCTAssertTrue(serial.isDisposed)
    }

    func testAssigningAfterDisposeDisposesTheNewOneAtOnce() {
        let calls = Recorder<String>()
        let serial = SerialDisposable()
        serial.dispose()
        serial.disposable = Disposables.create { calls.append("late") }
        XCTAssertEqual(calls.values, ["late"])
    }

    func testDisposeIsIdempotent() {
        let calls = Recorder<Int>()
        let serial = SerialDisposable()
        serial.disposable = Disposables.create { calls.append(1) }
        serial.dispose()
        serial.dispose()
        XCTAssertEqual(calls.count, 1)
    }

    func testSwitchingSubscriptionsKeepsOnlyTheLatest() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let values = Recorder<Int>()
        let serial = SerialDisposable()
        serial.disposable = first.subscribe(onNext: { values.append($0) })
        first.onNext(1)
        serial.disposable = second.subscribe(onNext: { values.append($0) })
        first.onNext(2)
        second.onNext(3)
        serial.dispose()
        second.onNext(4)
        XCTAssertEqual(values.values, [1, 3])
    }
}
