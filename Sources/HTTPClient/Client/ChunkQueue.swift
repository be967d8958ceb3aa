/// Byte chunks waiting in order, with their total: a streamed response's unread body, an
/// upload's chunks read ahead of the socket.
struct ChunkQueue: Sendable {
    private var chunks: [[UInt8]] = []
    private var first = 0
    /// The bytes of all the chunks waiting.
    private(set) var bytes = 0

    /// Puts `chunk` after those waiting.
    mutating func append(_ chunk: [UInt8]) {
        chunks.append(chunk)
        bytes += chunk.count
    }

    /// Takes the first chunk waiting, if any.
    mutating func pop() -> [UInt8]? {
        guard first < chunks.count else { return nil }
        let chunk = chunks[first]
        chunks[first] = []
        first += 1
        if first == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            first = 0
        }
        bytes -= chunk.count
        return chunk
    }

    /// Drops every chunk waiting.
    mutating func removeAll() {
        chunks.removeAll()
        first = 0
        bytes = 0
    }
}
