// libFuzzer entry for the inflater that decodes `gzip` and `deflate` response bodies, whole
// (`execute`) and as they arrive (`stream`); `scripts/fuzz.sh inflate` builds it with
// `-sanitize=fuzzer` and `-parse-as-library`.
import HTTPWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInflater(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: bytes, count: count))
    checkInflater(input, coding: .gzip)
    checkInflater(input, coding: .deflate)
    return 0
}

/// The invariants: no crash, whatever the bytes; decoding them whole and fed in 7-byte pieces
/// (taken at most 1,000 bytes a step) gives the same bytes or the same error; no step hands out
/// more than its maximum and one back-reference; nothing passes the limit.
func checkInflater(_ input: [UInt8], coding: Inflater.Coding) {
    let limit = 1 << 20
    let whole = Result { () throws(HTTPWireError) -> [UInt8] in try Inflater.decode(input, coding: coding, limit: limit) }
    let pieces = Result { () throws(HTTPWireError) -> [UInt8] in
        var stream = InflateStream(coding: coding, limit: limit)
        var output: [UInt8] = []
        func drain() throws(HTTPWireError) {
            while true {
                let chunk = try stream.next(maximum: 1_000)
                guard !chunk.isEmpty else { return }
                guard chunk.count <= 1_000 + 258 else { fatalError("a step passed its maximum") }
                output += chunk
            }
        }
        for start in stride(from: 0, to: input.count, by: 7) {
            stream.feed(input[start..<min(start + 7, input.count)])
            try drain()
        }
        stream.finishInput()
        try drain()
        return output
    }
    switch (whole, pieces) {
    case (.success(let a), .success(let b)):
        guard a == b else { fatalError("pieces decode to other bytes") }
        guard a.count <= limit else { fatalError("the output passed the limit") }
    case (.failure(let a), .failure(let b)):
        guard a == b else { fatalError("pieces fail otherwise: \(a) against \(b)") }
    default:
        fatalError("whole \(whole) against pieces \(pieces)")
    }
}
