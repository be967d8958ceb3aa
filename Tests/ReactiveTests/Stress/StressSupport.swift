import Foundation
import Reactive
import Synchronization
import XCTest

/// One element of a stress run: who sent it, its place in that sender's sequence, and its
/// place in the global order in which elements were handed to the subject.
struct Stamp: Sendable, Equatable {
    let sender: Int
    let sequence: Int
    let global: Int
}

/// Hands out global stamps; `mark()` returns a watermark that no later stamp is below.
final class StampClock: Sendable {
    private let counter = Atomic<Int>(0)

    /// The next stamp's global number (read-modify-write, so it orders after every earlier `mark()`).
    func next() -> Int { counter.add(1, ordering: .sequentiallyConsistent).newValue }

    /// Every stamp handed out so far is at most the returned value; later ones are above it.
    func mark() -> Int { counter.add(0, ordering: .sequentiallyConsistent).newValue }
}

/// Detects an observer being called on two threads at once.
final class OverlapDetector: Sendable {
    private let inside = Atomic<Bool>(false)
    private let overlaps = Atomic<Int>(0)

    /// Runs `body`, counting an overlap when another call is inside already.
    func run(_ body: () -> Void) {
        if inside.exchange(true, ordering: .acquiringAndReleasing) { overlaps.add(1, ordering: .relaxed) }
        body()
        inside.store(false, ordering: .releasing)
    }

    /// Overlapping calls seen.
    var count: Int { overlaps.load(ordering: .relaxed) }
}

/// Checks that `stamps` hold, for each sender, exactly `perSender` elements in order.
func assertCompletePerSenderOrder(
    _ stamps: [Stamp], senders: Int, perSender: Int, _ message: String,
    file: StaticString = #filePath, line: UInt = #line
) {
    var bySender = [[Int]](repeating: [], count: senders)
    for stamp in stamps { bySender[stamp.sender].append(stamp.sequence) }
    for (sender, sequences) in bySender.enumerated() where sequences != Array(0..<perSender) {
        XCTFail("\(message): sender \(sender) delivered \(sequences.count) of \(perSender) elements"
                + (sequences.count == perSender ? " out of order" : ""), file: file, line: line)
        return
    }
}

/// Checks that, for each sender, `stamps` are in increasing order (a gap is allowed).
func assertPerSenderOrder(_ stamps: [Stamp], _ message: String, file: StaticString = #filePath, line: UInt = #line) {
    var last: [Int: Int] = [:]
    for stamp in stamps {
        if let previous = last[stamp.sender], previous >= stamp.sequence {
            XCTFail("\(message): sender \(stamp.sender) went from \(previous) to \(stamp.sequence)", file: file, line: line)
            return
        }
        last[stamp.sender] = stamp.sequence
    }
}
