import FeedServer
import Foundation

/// The in-process `FeedServer` a network workload runs against.
enum BenchmarkServer {
    /// A started server, or `nil` after saying on stderr why `label`'s rows are skipped.
    static func start(for label: String, configuration: FeedServer.Configuration = .init()) -> FeedServer? {
        do {
            return try FeedServer(configuration: configuration)
        } catch {
            FileHandle.standardError.write(Data("\(label): cannot start FeedServer: \(error)\n".utf8))
            return nil
        }
    }
}
