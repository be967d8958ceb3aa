import Foundation
import Reactive
import TestSupport
import XCTest

/// `Rx` (RxSwift's `Reactive`): RxSwift's `ReactiveTests` case (a settable `rx`), and an
/// object's writable properties as `Binder`s through dynamic member lookup.
final class RxNamespaceTests: LeakCheckingTestCase {
    final class MyObject: RxCompatible {
        fileprivate var something = ""
    }

    final class Label: RxCompatible, @unchecked Sendable {
        // @unchecked: written on the main queue only (the binders' scheduler), read after a wait.
        var text = ""
        var isHidden = false
    }

    func testEnablesMutations() {
        let object = MyObject()
        var rx = object.rx
        rx.somethingPublic = "Aha"
        XCTAssertEqual(object.something, "Aha")

        var other = MyObject()
        other.rx.somethingPublic = "Oho"
        XCTAssertEqual(other.something, "Oho")
        XCTAssertEqual(other.rx.somethingPublic, "Oho")
    }

    func testAWritablePropertyIsABinderOnTheMainQueue() {
        let label = Label()
        let bag = DisposeBag()
        Observable.of("a", "b").bind(to: label.rx.text).disposed(by: bag)
        Observable.just(true).bind(to: label.rx.isHidden).disposed(by: bag)
        XCTAssertEqual(label.text, "", "a binder sets the property on the main queue, after this turn")
        XCTAssertTrue(waitUntil { label.text == "b" && label.isHidden })
    }

    func testTheBinderHoldsTheObjectWeakly() {
        var label: Label? = Label()
        weak let weakLabel = label
        let binder = label!.rx.text
        label = nil
        XCTAssertNil(weakLabel)
        binder.onNext("dropped")
    }
}

extension Rx where Base: RxNamespaceTests.MyObject {
    var somethingPublic: String {
        get { base.something }
        set { base.something = newValue }
    }
}
