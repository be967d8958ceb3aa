import Locking
import Synchronization

/// The JPEG files of recently served demo pictures (the same name always gives the same
/// bytes), so a feed shown again does not paint and encode them again. Holds at most 512.
final class DemoPictureCache: Sendable {
    static let shared = DemoPictureCache(capacity: 512)

    private struct Entries {
        var files: [String: [UInt8]] = [:]
        var order: [String] = []
    }

    private let capacity: Int
    private let entries = Lock(Entries())

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The file of `name`, painted and encoded on a miss (outside the lock).
    func jpeg(named name: String) -> [UInt8] {
        if let file = entries.withLock({ $0.files[name] }) { return file }
        let file = DemoPicture(name: name).jpeg()
        entries.withLock { entries in
            guard entries.files.updateValue(file, forKey: name) == nil else { return }
            entries.order.append(name)
            if entries.order.count > capacity {
                entries.files[entries.order.removeFirst()] = nil
            }
        }
        return file
    }
}
