/// Where an exchange puts a response body that does not stay in memory: a download's file
/// (`DownloadFileWriter`) or a streamed response's consumer (`ResponseBodyStream`). Both bound
/// what waits: past their limit `write` says so, the exchange leaves the socket unread, and
/// `resumeWhenDrained` tells it when to read again.
protocol ResponseBodySink: AnyObject, Sendable {
    /// The first error the sink met (a file that cannot be written), if any.
    var failure: (any Error)? { get }
    /// Takes `bytes` after those before; true when more than the sink's limit now waits
    /// (stop reading until `resumeWhenDrained`).
    func write(_ bytes: [UInt8]) -> Bool
    /// Calls `resume`, from any thread, once at most half the limit waits.
    func resumeWhenDrained(_ resume: @escaping @Sendable () -> Void)
    /// Ends the sink after what was written, then calls `done` (from any thread) with its first error.
    func finish(_ done: @escaping @Sendable ((any Error)?) -> Void)
    /// Whether the sink gives back the buffers written to it (`spareBuffer()`), so that body bytes
    /// may be read straight into them.
    var givesBuffersBack: Bool { get }
    /// A buffer the sink's reader let go of, for the exchange to put the next body bytes in (read
    /// straight into it, or decoded into it by `HTTPResponseParser.takeBody(reusing:)`); empty
    /// when there is none.
    func spareBuffer() -> [UInt8]
}

extension ResponseBodySink {
    var givesBuffersBack: Bool { false }
    func spareBuffer() -> [UInt8] { [] }
}

extension DownloadFileWriter: ResponseBodySink {}
