import Foundation
import Reactive

/// Subscribes to `single`, waits (spinning the run loop, up to `timeout` seconds) for its one
/// answer, disposes the subscription and returns the answer; nil when none came in time.
public func answer<Element: Sendable>(of single: Single<Element>, timeout: TimeInterval = 10) -> Result<Element, any Error>? {
    let results = Recorder<Result<Element, any Error>>()
    let subscription = single.subscribe { results.append($0) }
    _ = waitUntil(timeout: timeout) { results.count > 0 }
    subscription.dispose()
    return results.values.first
}
