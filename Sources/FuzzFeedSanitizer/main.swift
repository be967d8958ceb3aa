// libFuzzer entry for `FeedSanitizer.sanitize` and `Photo.decode(feed:)`; `scripts/fuzz.sh feed` builds
// it with `-sanitize=fuzzer` and `-parse-as-library`, so libFuzzer supplies `main`. A plain
// `swift build` links an executable that does nothing.
import Foundation
import PhotoFeed

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeedSanitizer(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Data(bytes: bytes, count: count)
    checkFeed(input)
    return 0
}

/// The invariants: no crash; valid JSON comes back byte for byte; when the input is JSON apart
/// from invalid escapes, the output is that JSON with only those backslashes dropped.
func checkFeed(_ input: Data) {
    let output = try? FeedSanitizer.sanitize(input)
    _ = try? Photo.decode(feed: input)
    if isJSON(input) {
        guard output == input else { fatalError("valid JSON changed by sanitize") }
    }
    if let repaired = referenceRepair(input), isJSON(repaired) {
        guard let output else { fatalError("sanitize rejected JSON that had only invalid escapes") }
        guard output == repaired else { fatalError("sanitize differs from the reference repair") }
    }
}

func isJSON(_ data: Data) -> Bool {
    (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
}

/// A slow, obvious repair: inside strings, a backslash before anything but a valid escape
/// (`\u` counts only with four hexadecimal digits after it) is dropped. No wrapper handling,
/// so it applies to bare JSON only.
func referenceRepair(_ data: Data) -> Data? {
    let bytes = [UInt8](data)
    var output: [UInt8] = []
    var inString = false
    var index = 0
    let valid: Set<UInt8> = Set("\"\\/bfnrt".utf8)
    let hex: Set<UInt8> = Set("0123456789abcdefABCDEF".utf8)
    while index < bytes.count {
        let byte = bytes[index]
        if inString && byte == UInt8(ascii: "\\") {
            guard index + 1 < bytes.count else { return nil }
            let next = bytes[index + 1]
            let unicode = next == UInt8(ascii: "u") && index + 5 < bytes.count
                && bytes[(index + 2)...(index + 5)].allSatisfy { hex.contains($0) }
            if valid.contains(next) || unicode {
                output.append(byte)
                output.append(next)
            } else {
                output.append(next)
            }
            index += 2
            continue
        }
        if byte == UInt8(ascii: "\"") { inString.toggle() }
        output.append(byte)
        index += 1
    }
    return Data(output)
}
