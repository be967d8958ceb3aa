import Foundation
import Locking
import Synchronization

/// Where `debug(_:)` writes its lines: standard output unless replaced (tests collect the
/// lines by setting `output`).
///
/// ```swift
/// DebugLog.output = { line in lines.append(line) }
/// ```
public enum DebugLog {
    private static let sink = Lock<@Sendable (String) -> Void>({ print($0) })

    /// The function each line is handed to; replaceable at any time, from any thread.
    public static var output: @Sendable (String) -> Void {
        get { sink.withLock { $0 } }
        set { sink.withLock { $0 = newValue } }
    }

    /// Hands `line` to `output`, outside the lock.
    static func write(_ line: String) {
        let output = self.output
        output(line)
    }
}

extension ObservableType {
    /// Logs every subscription, event and disposal in RxSwift's form,
    /// `2024-01-31 12:00:00.000: name -> Event next(1)`, through `DebugLog.output`. Without an
    /// identifier the call site names the lines; `trimOutput` shortens an event's text over
    /// 40 characters to its first and last 20.
    ///
    /// ```swift
    /// request.debug("login").subscribe()
    /// // ...: login -> subscribed
    /// // ...: login -> Event next(Response)
    /// // ...: login -> Event completed
    /// // ...: login -> isDisposed
    /// ```
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false,
        file: String = #file, line: UInt = #line, function: String = #function
    ) -> Observable<Element> {
        let fileName = file.split(separator: "/").last.map(String.init) ?? file
        let name = identifier ?? "\(fileName):\(line) (\(function))"
        return lift { DebugSink(downstream: $0, identifier: name, trimOutput: trimOutput) }
    }
}

// @unchecked: `disposed` is atomic; the rest is immutable.
final class DebugSink<Element>: Sink<Element>, OperatorSink, @unchecked Sendable {
    private static var maximumEventLength: Int { 40 }

    private let identifier: String
    private let trimOutput: Bool
    private let disposed = Atomic<Bool>(false)

    init(downstream: AnyObserver<Element>, identifier: String, trimOutput: Bool) {
        self.identifier = identifier
        self.trimOutput = trimOutput
        super.init(downstream: downstream)
        log("subscribed")
    }

    func on(_ event: Event<Element>) {
        let text = "\(event)"
        let shown = trimOutput && text.count > Self.maximumEventLength
            ? text.prefix(Self.maximumEventLength / 2) + "..." + text.suffix(Self.maximumEventLength / 2)
            : text
        log("Event \(shown)")
        downstream.on(event)
        if event.isStopEvent { dispose() }
    }

    override func dispose() {
        if !disposed.exchange(true, ordering: .acquiringAndReleasing) { log("isDisposed") }
        super.dispose()
    }

    private func log(_ content: String) {
        DebugLog.write("\(DebugTimestamp.now()): \(identifier) -> \(content)")
    }
}

/// RxSwift's timestamp for `debug` lines: `yyyy-MM-dd HH:mm:ss.SSS`, local time.
enum DebugTimestamp {
    private static let formatter = Lock<DateFormatter>({
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        return formatter
    }())

    static func now() -> String {
        formatter.withLock { $0.string(from: Date()) }
    }
}

extension Single {
    /// Logs the single's subscription, events and disposal; see `Observable.debug`.
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false,
        file: String = #file, line: UInt = #line, function: String = #function
    ) -> Single<Element> {
        Single(unchecked: source.debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }
}

extension Maybe {
    /// Logs the maybe's subscription, events and disposal; see `Observable.debug`.
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false,
        file: String = #file, line: UInt = #line, function: String = #function
    ) -> Maybe<Element> {
        Maybe(unchecked: source.debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }
}

extension Completable {
    /// Logs the completable's subscription, events and disposal; see `Observable.debug`.
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false,
        file: String = #file, line: UInt = #line, function: String = #function
    ) -> Completable {
        Completable(unchecked: source.debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }
}
