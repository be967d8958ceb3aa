import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class GrammarTests: LeakCheckingTestCase {
    func testCreateDropsEverythingAfterTheFirstTerminalEvent() {
        let events = Recorder<String>()
        let subscription = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            observer.onNext(2)
            observer.onError(TestError(1))
            observer.onCompleted()
            return Disposables.create()
        }
        .subscribe(onNext: { events.append("next \($0)") },
                   onError: { _ in events.append("error") },
                   onCompleted: { events.append("completed") },
                   onDisposed: { events.append("disposed") })
        subscription.dispose()
        XCTAssertEqual(events.values, ["next 1", "completed", "disposed"])
    }

    func testDisposeIsIdempotent() {
        let disposals = Recorder<Int>()
        let subscription = Observable<Int>.never().subscribe(onDisposed: { disposals.append(1) })
        subscription.dispose()
        subscription.dispose()
        XCTAssertEqual(disposals.count, 1)
    }

    func testTakeStopsAnEndlessSynchronousSource() {
        let values = Recorder<Int>()
        Observable.range(start: 0, count: Int.max).take(3).subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values.values, [0, 1, 2])
    }
}
