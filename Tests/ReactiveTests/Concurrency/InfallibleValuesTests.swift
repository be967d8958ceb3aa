import Foundation
import Reactive
import TestSupport
import XCTest

/// `infallible.values`: RxSwift's `InfallibleConcurrencyTests`, and how the loop ends.
final class InfallibleValuesTests: LeakCheckingTestCase {
    func testAwaitsValuesAndFinishes() async {
        var values: [Int] = []
        for await value in Infallible.from(1...10).values { values.append(value) }
        XCTAssertEqual(values, Array(1...10))
    }

    func testARelayAsInfallibleIsIteratedWithoutTry() async {
        let relay = BehaviorRelay(value: 1)
        let sequence = relay.asInfallible().take(3).values
        relay.accept(2)
        relay.accept(3)
        var values: [Int] = []
        for await value in sequence { values.append(value) }
        XCTAssertEqual(values, [1, 2, 3])
    }

    func testCancellingTheTaskEndsTheLoopAndDisposes() async {
        let disposed = Recorder<Bool>()
        let endless = Infallible<Int>.create { observer in
            observer(.next(1))
            return Disposables.create { disposed.append(true) }
        }
        let received = Recorder<Int>()
        let looping = Task { () -> [Int] in
            var seen: [Int] = []
            for await value in endless.values {
                seen.append(value)
                received.append(value)
                try? await Task.sleep(for: .seconds(60))
            }
            return seen
        }
        for _ in 0..<5_000 where received.count == 0 { try? await Task.sleep(for: .milliseconds(1)) }
        looping.cancel()
        let seen = await looping.value
        XCTAssertEqual(seen, [1], "the loop ends with nil once cancelled, as an AsyncStream does")
        XCTAssertEqual(disposed.values, [true])
    }
}
