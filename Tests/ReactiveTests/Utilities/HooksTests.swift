import Reactive
import TestSupport
import XCTest

/// RxSwift's `Hooks.defaultErrorHandler` and `customCaptureSubscriptionCallstack`.
final class HooksTests: LeakCheckingTestCase {
    private var savedHandler: Hooks.DefaultErrorHandler?
    private var savedCapture: Hooks.CustomCaptureSubscriptionCallstack?

    override func setUp() {
        super.setUp()
        savedHandler = Hooks.defaultErrorHandler
        savedCapture = Hooks.customCaptureSubscriptionCallstack
    }

    override func tearDown() {
        if let savedHandler { Hooks.defaultErrorHandler = savedHandler }
        if let savedCapture { Hooks.customCaptureSubscriptionCallstack = savedCapture }
        Hooks.recordCallStackOnError = false
        super.tearDown()
    }

    func testAnUnhandledErrorGoesToTheDefaultErrorHandler() {
        let reported = Recorder<String>()
        Hooks.defaultErrorHandler = { callStack, error in reported.append("\(error) \(callStack)") }
        Observable<Int>.error(TestError(1)).subscribe(onNext: { _ in })
        XCTAssertEqual(reported.values, ["\(TestError(1)) []"], "no call stack unless recording")
    }

    func testAHandledErrorDoesNotReachTheHook() {
        let reported = Recorder<String>()
        Hooks.defaultErrorHandler = { _, error in reported.append("\(error)") }
        let handled = Recorder<String>()
        Observable<Int>.error(TestError(2)).subscribe(onError: { handled.append("\($0)") })
        XCTAssertEqual(reported.values, [])
        XCTAssertEqual(handled.count, 1)
    }

    func testTheCustomCallStackIsRecordedAtSubscriptionWhenAskedFor() {
        let reported = Recorder<[String]>()
        Hooks.defaultErrorHandler = { callStack, _ in reported.append(callStack) }
        Hooks.customCaptureSubscriptionCallstack = { ["frame 1", "frame 2"] }
        Hooks.recordCallStackOnError = true
        let subject = PublishSubject<Int>()
        let subscription = subject.subscribe()
        Hooks.customCaptureSubscriptionCallstack = { ["later"] }
        subject.onError(TestError(3))
        XCTAssertEqual(reported.values, [["frame 1", "frame 2"]])
        subscription.dispose()
    }

    func testRecordingOffCapturesNothing() {
        let captured = Recorder<Bool>()
        Hooks.customCaptureSubscriptionCallstack = {
            captured.append(true)
            return []
        }
        Hooks.defaultErrorHandler = { _, _ in }
        Observable<Int>.error(TestError(4)).subscribe()
        XCTAssertEqual(captured.count, 0)
    }

    func testTheDefaultCaptureReturnsTheCallStackInDebugBuilds() {
        Hooks.recordCallStackOnError = true
        let stack = Hooks.customCaptureSubscriptionCallstack()
        #if DEBUG
        XCTAssertFalse(stack.isEmpty)
        #else
        XCTAssertEqual(stack, [])
        #endif
    }
}
