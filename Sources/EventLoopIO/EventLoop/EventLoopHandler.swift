/// What an event loop calls when a registered socket is ready. Both run on the loop's thread.
public protocol EventLoopHandler: AnyObject {
    /// The socket has bytes to read, reached end of stream, or failed (the next read says which).
    func socketReadable()
    /// The socket can take more bytes, finished connecting, or failed (the next write says which).
    func socketWritable()
}
