import Reactive
import TestSupport

/// `DebugLog.output` redirected into `lines` from creation until `restore()`.
final class DebugLogCapture {
    /// Every line written meanwhile.
    let lines = Recorder<String>()
    private let previous: @Sendable (String) -> Void

    init() {
        previous = DebugLog.output
        let lines = self.lines
        DebugLog.output = { lines.append($0) }
    }

    /// Puts back the output that was there before.
    func restore() {
        DebugLog.output = previous
    }
}
