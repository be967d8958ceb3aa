import Synchronization

/// A block of memory for one decode's scratch (its sample rings, its Huffman tables), reused
/// from one decode to the next: glibc hands freed memory at the top of the heap back to the
/// system, so scratch allocated afresh for every picture was page-faulted in again every time
/// (and pushed the output buffer past what the trimmed heap keeps).
///
/// For each `Use`, one block waits in a slot shared by every decoder. A decode takes it with an
/// atomic exchange (or allocates its own when another decode holds it or it is too small) and
/// puts it back when done, if the slot is empty and the block is at most `keptLimit` bytes.
/// Concurrent decodes never share a block, and the process keeps at most one block per use.
final class ReusedBlock {
    /// What the block holds: each use has its own slot.
    enum Use {
        case sampleRings, huffmanTables
    }

    /// Larger blocks are freed when their decode ends, not kept.
    static let keptLimit = 1 << 20

    /// The waiting blocks' addresses (0 when there is none): each block's capacity is in its
    /// first `headerSize` bytes, the memory handed out after them.
    private static let ringsSlot = Atomic<Int>(0)
    private static let tablesSlot = Atomic<Int>(0)
    private static let headerSize = 64

    private let use: Use
    private let block: UnsafeMutableRawPointer
    /// How many bytes `memory` holds (at least the capacity asked for).
    let capacity: Int
    /// The memory, `capacity` bytes aligned to 64, contents undefined.
    let memory: UnsafeMutableRawPointer

    /// At least `capacity` bytes for `use`.
    init(capacity: Int, for use: Use) {
        self.use = use
        var block = UnsafeMutableRawPointer(bitPattern: Self.exchange(use, 0))
        if let taken = block, taken.load(as: Int.self) < capacity {
            taken.deallocate()
            block = nil
        }
        let owned = block ?? Self.allocate(capacity)
        self.block = owned
        self.capacity = owned.load(as: Int.self)
        memory = owned + Self.headerSize
    }

    deinit {
        if capacity <= Self.keptLimit, Self.giveBack(use, Int(bitPattern: block)) { return }
        block.deallocate()
    }

    /// The memory as `count` bytes from `offset` on, bound to `UInt8`.
    func bytes(from offset: Int, count: Int) -> UnsafeMutableBufferPointer<UInt8> {
        UnsafeMutableBufferPointer(start: (memory + offset).bindMemory(to: UInt8.self, capacity: count), count: count)
    }

    private static func exchange(_ use: Use, _ value: Int) -> Int {
        switch use {
        case .sampleRings: ringsSlot.exchange(value, ordering: .acquiringAndReleasing)
        case .huffmanTables: tablesSlot.exchange(value, ordering: .acquiringAndReleasing)
        }
    }

    /// Puts `address` in the slot of `use` when it is empty; whether it did.
    private static func giveBack(_ use: Use, _ address: Int) -> Bool {
        switch use {
        case .sampleRings:
            ringsSlot.compareExchange(expected: 0, desired: address, ordering: .acquiringAndReleasing).exchanged
        case .huffmanTables:
            tablesSlot.compareExchange(expected: 0, desired: address, ordering: .acquiringAndReleasing).exchanged
        }
    }

    private static func allocate(_ capacity: Int) -> UnsafeMutableRawPointer {
        let block = UnsafeMutableRawPointer.allocate(byteCount: headerSize + capacity, alignment: headerSize)
        block.storeBytes(of: capacity, as: Int.self)
        return block
    }
}
