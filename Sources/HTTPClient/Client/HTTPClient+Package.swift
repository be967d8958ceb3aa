import EventLoopIO

/// What the package's own adapter (`Networking`'s `SocketTransport`) needs of the event loops
/// and the system, so that it imports nothing below `HTTPClient`.
extension HTTPClient {
    /// Whether the calling thread is one of the event loops' threads, where no caller code may run.
    package static var isOnLoopThread: Bool { EventLoop.isOnAnyLoopThread }

    /// The system's message for `errno` ("Connection refused").
    package static func systemMessage(errno number: Int32) -> String {
        SocketError.message(errno: number)
    }
}
