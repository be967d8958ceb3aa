import EventLoopIO
import FeedServer
import Foundation

/// The in-process `FeedServer` a network workload runs against.
enum BenchmarkServer {
    /// The server's own loops, one per processor: the clients measured run on the shared loops,
    /// so the server's work never waits behind theirs on one loop (nor theirs behind its).
    static let loops = try? EventLoopGroup(count: EventLoopGroup.machineLoopCount, label: "BenchServer")

    /// A started server on `loops`, or `nil` after saying on stderr why `label`'s rows are skipped.
    static func start(for label: String, configuration: FeedServer.Configuration = .init()) -> FeedServer? {
        var configuration = configuration
        configuration.eventLoopGroup = configuration.eventLoopGroup ?? loops
        do {
            return try FeedServer(configuration: configuration)
        } catch {
            FileHandle.standardError.write(Data("\(label): cannot start FeedServer: \(error)\n".utf8))
            return nil
        }
    }
}
