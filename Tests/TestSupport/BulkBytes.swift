import Foundation

/// Megabytes of test payload made, joined and compared at memory speed. A closure a byte (`map`,
/// `allSatisfy`, `joined`, `==` on arrays) over millions of bytes took seconds in the debug build
/// and several times that under the thread sanitizer, more than the sockets' work a test checks.
public enum BulkBytes {
    /// The period every payload repeats: byte i is 31·i + i/256, mod 256, so runs of it 256 bytes
    /// apart differ too, and a byte lost, doubled or moved shows.
    private static let period: [UInt8] = (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }

    /// Byte i is i mod 256, as FeedServer's `bytes/N` route sends.
    private static let counter: [UInt8] = (0..<256).map { UInt8($0) }

    /// `count` bytes of the pattern, starting `offset` bytes into it.
    public static func make(_ count: Int, from offset: Int = 0) -> [UInt8] {
        repeating(period, count, from: offset)
    }

    /// `count` bytes where byte i is i mod 256, starting `offset` bytes in: what FeedServer's
    /// `bytes/N` route sends.
    public static func counting(_ count: Int, from offset: Int = 0) -> [UInt8] {
        repeating(counter, count, from: offset)
    }

    /// Whether `received` holds exactly the bytes of `sent`, compared by `memcmp`.
    public static func equal(_ received: some ContiguousBytes, _ sent: some ContiguousBytes) -> Bool {
        received.withUnsafeBytes { received in
            sent.withUnsafeBytes { sent in
                guard received.count == sent.count else { return false }
                guard let left = received.baseAddress, let right = sent.baseAddress else { return true }
                return memcmp(left, right, received.count) == 0
            }
        }
    }

    /// Whether every byte of `bytes` is `value` (true for none).
    public static func all(_ value: UInt8, in bytes: some ContiguousBytes) -> Bool {
        bytes.withUnsafeBytes { bytes in
            // All bytes are alike when the run equals itself moved by one.
            guard let start = bytes.baseAddress, let first = bytes.first else { return true }
            return first == value && memcmp(start, start + 1, bytes.count - 1) == 0
        }
    }

    /// The chunks one after another, in one array.
    public static func joined(_ chunks: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(chunks.reduce(0) { $0 + $1.count })
        for chunk in chunks { bytes += chunk }
        return bytes
    }

    /// The mean of |a[i] - b[i]| over the shorter of the two (0 for none): how far a decoded
    /// picture is from its reference, per sample.
    public static func meanAbsoluteDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        let count = min(a.count, b.count)
        guard count > 0 else { return 0 }
        let total = a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                var total = 0
                var index = 0
                while index < count {
                    let (x, y) = (Int(a[index]), Int(b[index]))
                    total += x > y ? x - y : y - x
                    index += 1
                }
                return total
            }
        }
        return Double(total) / Double(count)
    }

    private static func repeating(_ period: [UInt8], _ count: Int, from offset: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        var position = offset % period.count
        while bytes.count < count {
            let length = min(period.count - position, count - bytes.count)
            bytes.append(contentsOf: period[position..<(position + length)])
            position = 0
        }
        return bytes
    }
}
