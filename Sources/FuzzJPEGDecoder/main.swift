// libFuzzer entry for `JPEGDecoder`; `scripts/fuzz.sh jpeg` builds it with `-sanitize=fuzzer,address`
// and `-parse-as-library`, so libFuzzer supplies `main`. A plain `swift build` links an
// executable that does nothing.
import Foundation
import ImageDecoding

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGDecoder(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    checkDecode(Data(bytes: bytes, count: count))
    return 0
}

/// The invariants: no crash or sanitizer report whatever the bytes; every error is an
/// `ImageDecodingError` with an offset inside the data; what decodes strictly decodes the same
/// with `allowPartial`; a thumbnail decode never exceeds its size. The pixel limit is lowered
/// so one input cannot take seconds.
func checkDecode(_ input: Data) {
    let strict = JPEGDecoder(maximumPixelCount: 1 << 18)
    let partial = JPEGDecoder(allowPartial: true, maximumPixelCount: 1 << 18)
    let whole = result(strict, input)
    let lenient = result(partial, input)
    if case .success(let image) = whole {
        guard case .success(let again) = lenient, again == image else { fatalError("allowPartial changed a good decode") }
    }
    if case .success(let thumbnail) = result(partial, input, maxPixelSize: 33) {
        guard max(thumbnail.width, thumbnail.height) <= 33 else { fatalError("thumbnail larger than asked") }
    }
    _ = JPEGDecoder.orientation(of: input)
}

func result(_ decoder: JPEGDecoder, _ input: Data, maxPixelSize: Int? = nil) -> Result<RGBImage, ImageDecodingError> {
    do {
        let image = try maxPixelSize.map { try decoder.decode(input, maxPixelSize: $0) } ?? decoder.decode(input)
        return .success(image)
    } catch let error as ImageDecodingError {
        guard (0...input.count).contains(error.offset) else { fatalError("offset \(error.offset) outside the data") }
        return .failure(error)
    } catch {
        fatalError("untyped error \(error)")
    }
}
