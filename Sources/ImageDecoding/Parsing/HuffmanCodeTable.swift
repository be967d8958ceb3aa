/// A JPEG Huffman table as a DHT segment carries it (how many codes have each length 1...16, and
/// the symbols in code order) with its canonical codes (ITU T.81 Annex C.2): the one description
/// the decoder's `HuffmanTable` and the demo server's encoder both build from.
package struct HuffmanCodeTable: Sendable {
    /// How many codes have each length 1...16.
    package let counts: [UInt8]
    /// The symbols, shortest codes first.
    package let symbols: [UInt8]
    /// The code of each entry of `symbols`, in the same order, and its length in bits.
    package let codes: [(code: UInt32, length: Int)]
    /// For each symbol value 0...255, its code and length (length 0: the symbol has no code); an
    /// encoder's lookup. A symbol listed twice keeps its first code.
    package let bySymbol: [(code: UInt32, length: Int)]

    /// `nil` unless there are 16 counts adding up to the symbols (at most 256) and each length
    /// has room for its codes (the code of all one bits is reserved).
    package init?(counts: [UInt8], symbols: [UInt8]) {
        guard counts.count == 16, counts.reduce(0, { $0 + Int($1) }) == symbols.count, symbols.count <= 256 else {
            return nil
        }
        var codes: [(code: UInt32, length: Int)] = []
        codes.reserveCapacity(symbols.count)
        var code = 0
        for length in 1...16 {
            let count = Int(counts[length - 1])
            if count > 0 {
                guard code + count < (1 << length) else { return nil }
                for _ in 0..<count {
                    codes.append((UInt32(code), length))
                    code += 1
                }
            }
            code <<= 1
        }
        var bySymbol = [(code: UInt32, length: Int)](repeating: (0, 0), count: 256)
        for (symbol, entry) in zip(symbols, codes).reversed() { bySymbol[Int(symbol)] = entry }
        self.counts = counts
        self.symbols = symbols
        self.codes = codes
        self.bySymbol = bySymbol
    }
}
