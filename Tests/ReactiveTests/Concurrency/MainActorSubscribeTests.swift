import Foundation
import Reactive
import TestSupport
import XCTest

/// Counts what a main-actor view model received.
@MainActor
private final class ViewModel {
    var values: [Int] = []
    var errors: [TestError] = []
    var completions = 0
    var offMain = 0

    func render(_ value: Int) {
        if !Thread.isMainThread { offMain += 1 }
        values.append(value)
    }
}

/// XCTest on Linux cannot call `@MainActor` test methods; the tests run on the main thread
/// and enter the main actor with `assumeIsolated`.
final class MainActorSubscribeTests: LeakCheckingTestCase {
    func testElementsFromABackgroundThreadReachAMainActorClosureInOrder() {
        MainActor.assumeIsolated {
            let model = ViewModel()
            let subject = PublishSubject<Int>()
            let subscription = subject.subscribe(onMainActor: { model.render($0) },
                                                 onCompleted: { model.completions += 1 })
            let sent = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                for value in 0..<50 { subject.onNext(value) }
                subject.onCompleted()
                sent.signal()
            }
            sent.wait()
            XCTAssertTrue(waitUntil { model.completions == 1 })
            subscription.dispose()
            XCTAssertEqual(model.values, Array(0..<50))
            XCTAssertEqual(model.offMain, 0)
        }
    }

    func testErrorsReachTheMainActor() {
        MainActor.assumeIsolated {
            let model = ViewModel()
            let subscription = Observable<Int>.error(TestError(6))
                .subscribe(onMainActor: { model.render($0) }, onError: { model.errors.append(($0 as? TestError) ?? TestError(-1)) })
            XCTAssertTrue(waitUntil { !model.errors.isEmpty })
            subscription.dispose()
            XCTAssertEqual(model.errors, [TestError(6)])
        }
    }

    func testSingleDeliversItsAnswerOnTheMainActor() {
        MainActor.assumeIsolated {
            let model = ViewModel()
            let subscription = Single<Int>.create { observer in
                DispatchQueue.global().async { observer(.success(7)) }
                return Disposables.create()
            }
            .subscribe(onMainActor: { model.render($0) })
            XCTAssertTrue(waitUntil { !model.values.isEmpty })
            subscription.dispose()
            XCTAssertEqual(model.values, [7])
            XCTAssertEqual(model.offMain, 0)
        }
    }

    func testDisposingBeforeTheMainQueueRunsDeliversNothing() {
        MainActor.assumeIsolated {
            let model = ViewModel()
            let subscription = Observable.of(1, 2, 3).subscribe(onMainActor: { model.render($0) })
            subscription.dispose()
            // The values were queued on the main queue at subscription; it runs work in order.
            let marker = Recorder<Int>()
            DispatchQueue.main.async { marker.append(1) }
            XCTAssertTrue(waitUntil { marker.count == 1 })
            XCTAssertEqual(model.values, [])
        }
    }
}
