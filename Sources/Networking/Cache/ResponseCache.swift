import Foundation
import Locking
import Synchronization

/// Responses by cache key: an in-memory LRU of `capacity` entries (and at most `memoryByteLimit`
/// bytes of bodies), backed (optionally) by a directory with one file per key (at most
/// `diskByteLimit` bytes, the least recently written removed first). `HTTPCache` keeps its
/// responses here too: one store for the provider's `requestCached` and for RFC 9111 caching,
/// under the same keys (`"GET <url>"`).
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
    /// The most bytes kept in memory, if limited.
    public let memoryByteLimit: Int?
    /// The most bytes of files kept in `directory`, if limited.
    public let diskByteLimit: Int?

    private let memory: Lock<LRUIndex<CacheSlot>>
    /// Sizes of the files written, oldest first, while `diskByteLimit` is set (read from the
    /// directory at the first write).
    private let disk = Lock<DiskUsage?>(nil)
    /// Where `HTTPCache` writes files when a response arrives on an event loop.
    private let writes = DispatchQueue(label: "ResponseCache.writes", target: .global(qos: .utility))

    /// A cache of `capacity` responses (and at most `memoryByteLimit` bytes) in memory, also
    /// stored in `directory` when given (created on first write, at most `diskByteLimit` bytes).
    public init(capacity: Int = 100, directory: URL? = nil, memoryByteLimit: Int? = nil, diskByteLimit: Int? = nil) {
        self.capacity = max(0, capacity)
        self.directory = directory
        self.memoryByteLimit = memoryByteLimit.map { max(0, $0) }
        self.diskByteLimit = diskByteLimit.map { max(0, $0) }
        self.memory = Lock(LRUIndex(capacity: capacity, costLimit: memoryByteLimit ?? .max))
    }

    /// The keys held in memory, least recently used first.
    public var memoryKeys: [String] { memory.withLock { $0.keys } }

    /// The bytes held in memory.
    public var memoryBytes: Int { memory.withLock { $0.totalCost } }

    /// Whether a lookup could find anything: false only for a cache without a directory that
    /// holds nothing in memory, whose lookups then need no key.
    var mayHoldResponses: Bool { directory != nil || !memory.withLock { $0.isEmpty } }

    /// The response stored for `key`, from memory or disk; `nil` on a miss.
    public func response(forKey key: String) -> Response? {
        slot(forKey: key)?.response
    }

    /// Stores `response` for `key`, replacing what was there.
    public func store(_ response: Response, forKey key: String) {
        let now = Date()
        store(CacheSlot(response: response, requestFields: [:], requestTime: now, responseTime: now, freshness: nil), forKey: key)
    }

    /// Forgets `key` in memory and on disk.
    public func removeResponse(forKey key: String) {
        memory.withLock { _ = $0.remove(key) }
        if let file = fileURL(forKey: key) {
            try? FileManager.default.removeItem(at: file)
            disk.withLock { $0?.remove(file.lastPathComponent) }
        }
    }

    /// Forgets everything, deleting the cache's files (and nothing else) from `directory`.
    public func removeAll() {
        memory.withLock { $0.removeAll() }
        disk.withLock { $0 = nil }
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

    /// The slot stored for `key`, from memory or disk.
    func slot(forKey key: String) -> CacheSlot? {
        if let slot = memory.withLock({ $0.value(forKey: key) }) { return slot }
        guard let slot = readFile(forKey: key) else { return nil }
        memory.withLock { _ = $0.set(slot, forKey: key, cost: slot.cost) }
        return slot
    }

    /// Stores `slot` for `key`; the file is written at once, or on the cache's own queue when
    /// `writingLater` (a caller on an event loop, which never waits on a disk).
    func store(_ slot: CacheSlot, forKey key: String, writingLater: Bool = false) {
        memory.withLock { _ = $0.set(slot, forKey: key, cost: slot.cost) }
        guard directory != nil else { return }
        let record = CachedResponseRecord(key: key, slot: slot)
        if writingLater {
            writes.async { self.writeFile(record) }
        } else {
            writeFile(record)
        }
    }

    /// Whether a body of `count` bytes fits (URLCache's rule: at most a twentieth of the larger limit).
    func admits(bodyBytes count: Int) -> Bool {
        let limit = max(memoryByteLimit ?? .max, diskByteLimit ?? (directory == nil ? 0 : .max))
        return limit == .max || count <= limit / 20
    }

    private func readFile(forKey key: String) -> CacheSlot? {
        guard let file = fileURL(forKey: key), let data = try? Data(contentsOf: file) else { return nil }
        guard let record = try? JSONDecoder().decode(CachedResponseRecord.self, from: data),
              record.version == CachedResponseRecord.currentVersion else {
            try? FileManager.default.removeItem(at: file)
            return nil
        }
        return record.key == key ? record.slot : nil
    }

    private func writeFile(_ record: CachedResponseRecord) {
        guard let directory, let file = fileURL(forKey: record.key),
              let data = try? JSONEncoder().encode(record) else { return }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard (try? data.write(to: file, options: .atomic)) != nil, let diskByteLimit else { return }
        let removed = disk.withLock { usage -> [String] in
            if usage == nil { usage = DiskUsage(directory: directory) }
            return usage?.wrote(file.lastPathComponent, bytes: data.count, limit: diskByteLimit) ?? []
        }
        for name in removed { try? FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
    }
}
