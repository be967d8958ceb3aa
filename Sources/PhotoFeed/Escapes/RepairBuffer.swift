import Foundation

/// The sanitizer's output bytes: one allocation sized to the input, filled by bulk copies.
struct RepairBuffer {
    private var start: UnsafeMutablePointer<UInt8>?
    private var count = 0
    private var capacity = 0

    /// Whether anything has been copied yet.
    var isAllocated: Bool { start != nil }

    /// Copies `length` bytes, allocating `capacity` bytes on first use; never grows past it.
    mutating func append(_ source: UnsafePointer<UInt8>, count length: Int, capacity: Int) {
        if start == nil {
            start = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity, 1))
            self.capacity = max(capacity, 1)
        }
        guard let start, length > 0, count + length <= self.capacity else { return }
        (start + count).update(from: source, count: length)
        count += length
    }

    /// Hands the bytes to a `Data` that frees them; the buffer is empty afterwards.
    mutating func finish() -> Data {
        guard let start else { return Data() }
        self.start = nil
        return Data(bytesNoCopy: start, count: count, deallocator: .custom { pointer, _ in
            pointer.assumingMemoryBound(to: UInt8.self).deallocate()
        })
    }

    /// Frees the bytes without using them.
    mutating func release() {
        start?.deallocate()
        start = nil
    }
}
