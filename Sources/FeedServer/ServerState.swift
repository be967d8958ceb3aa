import EventLoopIO

/// Everything the server's loops share, kept behind the server's `Lock`.
struct ServerState: Sendable {
    var stopping = false
    /// The open connections, by their socket.
    var open: [TCPSocket: Connection] = [:]
    var connectionCount = 0
    var flakyAttempts: [String: Int] = [:]
    var feedPage = 0
    var abandonedImages = 0
    var faultRandom: SplitMix64

    init(seed: UInt64) {
        faultRandom = SplitMix64(seed: seed, stream: 3, index: 0)
    }
}
