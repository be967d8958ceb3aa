import Locking
import Networking
import Synchronization

/// Collects logger output lines from any thread.
final class LineCollector: Sendable {
    private let storage = Lock<[String]>([])

    var lines: [String] { storage.withLock { $0 } }
    var text: String { lines.joined(separator: "\n") }

    var output: NetworkLoggerPlugin.Configuration.OutputType {
        { [self] _, items in storage.withLock { $0.append(contentsOf: items) } }
    }
}
