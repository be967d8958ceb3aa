import Foundation
import Locking
import Synchronization

/// Responses by cache key: an in-memory LRU of `capacity` entries, backed (optionally) by a
/// directory with one file per key.
///
/// Reads try memory, then disk (promoting a disk hit into memory). Writes go to both. The disk
/// is best effort: write failures are ignored, and an unreadable, corrupt or foreign file reads
/// as a miss and is deleted. Memory evictions leave the disk copy in place.
///
/// ```swift
/// let cache = ResponseCache(capacity: 50, directory: cachesURL.appendingPathComponent("api"))
/// provider.rx.requestCached(.feed, cache: cache)   // cached response first, then the fresh one
/// ```
public final class ResponseCache: Sendable {
    /// The most responses kept in memory (0 keeps none there).
    public let capacity: Int
    /// Where responses are also written, if anywhere.
    public let directory: URL?

    private let memory: Lock<LRUIndex<Response>>

    /// A cache of `capacity` responses in memory, also stored in `directory` when given
    /// (created on first write).
    public init(capacity: Int = 100, directory: URL? = nil) {
        self.capacity = max(0, capacity)
        self.directory = directory
        self.memory = Lock(LRUIndex(capacity: capacity))
    }

    /// The keys held in memory, least recently used first.
    public var memoryKeys: [String] { memory.withLock { $0.keys } }

    /// The response stored for `key`, from memory or disk; `nil` on a miss.
    public func response(forKey key: String) -> Response? {
        if let response = memory.withLock({ $0.value(forKey: key) }) { return response }
        guard let response = readFile(forKey: key) else { return nil }
        memory.withLock { _ = $0.set(response, forKey: key) }
        return response
    }

    /// Stores `response` for `key`, replacing what was there.
    public func store(_ response: Response, forKey key: String) {
        memory.withLock { _ = $0.set(response, forKey: key) }
        writeFile(CachedResponseRecord(key: key, response: response))
    }

    /// Forgets `key` in memory and on disk.
    public func removeResponse(forKey key: String) {
        memory.withLock { _ = $0.remove(key) }
        if let file = fileURL(forKey: key) { try? FileManager.default.removeItem(at: file) }
    }

    /// Forgets everything, deleting the cache's files (and nothing else) from `directory`.
    public func removeAll() {
        memory.withLock { $0.removeAll() }
        guard let directory,
              let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil) else { return }
        for file in files where file.pathExtension == CacheFileName.fileExtension {
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// The file that holds `key`, when the cache has a directory.
    public func fileURL(forKey key: String) -> URL? {
        directory?.appendingPathComponent(CacheFileName.forKey(key), isDirectory: false)
    }

    private func readFile(forKey key: String) -> Response? {
        guard let file = fileURL(forKey: key), let data = try? Data(contentsOf: file) else { return nil }
        guard let record = try? JSONDecoder().decode(CachedResponseRecord.self, from: data),
              record.version == CachedResponseRecord.currentVersion else {
            try? FileManager.default.removeItem(at: file)
            return nil
        }
        return record.key == key ? record.response : nil
    }

    private func writeFile(_ record: CachedResponseRecord) {
        guard let directory, let file = fileURL(forKey: record.key),
              let data = try? JSONEncoder().encode(record) else { return }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? data.write(to: file, options: .atomic)
    }
}
