/// The line-editing control keys of the prompts, carried as `Key.character` of their control
/// character (the base ``KeyDecoder`` skips control bytes; ``EditingKeyDecoder`` keeps these).
extension Key {
    /// Ctrl-U: delete from the cursor to the start of the line.
    package static let deleteToStart = Key.character("\u{15}")
    /// Ctrl-W: delete the word before the cursor.
    package static let deleteWord = Key.character("\u{17}")
}

/// ``KeyDecoder`` plus Ctrl-U and Ctrl-W, which it would skip: those bytes (never part of an
/// escape sequence) become ``Key/deleteToStart`` and ``Key/deleteWord`` in their place.
package struct EditingKeyDecoder: Sendable {
    private var decoder = KeyDecoder()

    /// A decoder with nothing pending.
    package init() {}

    /// The keys completed by `bytes`, in order.
    package mutating func feed(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var run: [UInt8] = []
        for byte in bytes {
            guard byte == 0x15 || byte == 0x17 else {
                run.append(byte)
                continue
            }
            keys += decoder.feed(run)
            run.removeAll()
            keys.append(byte == 0x15 ? .deleteToStart : .deleteWord)
        }
        return keys + decoder.feed(run)
    }
}
