// libFuzzer entry for `JPEGDecoder`; `scripts/fuzz.sh jpeg` builds it with
// `-sanitize=fuzzer,address`, `-parse-as-library` and `-D FUZZING`, so libFuzzer supplies `main`
// and `AllocationCounter` counts. A plain `swift build` links an executable that does nothing.
import Foundation
import ImageDecoding

/// What the decoders here may use.
enum Bounds {
    /// The decoders' `maximumPixelCount`: low, so one input cannot take seconds.
    static let pixels = 1 << 18
    /// Samples a component plane may hold beyond the picture's own: planes are allocated for
    /// whole MCUs, up to 31 more columns and rows, so `(w + 31)(h + 31) - w h = 31 (w + h + 31)`,
    /// and with sides of at most 65,535 and `w h` within the limit, `w + h` is at most
    /// `65,535 + pixels / 65,535` (rounded up).
    static let padding = 31 * (65_535 + pixels / 65_535 + 1 + 31)
    /// The most a decode may have allocated at once. `JPEGDecoder` documents its limit in
    /// pixels: images over `maximumPixelCount` are refused before any pixel memory is allocated.
    /// Pixel memory within the limit is, per pixel, at most: four component planes of one sample
    /// and, in a progressive frame, two coefficient bytes each (12, on the padded planes too),
    /// then the RGB result (3) and one resampling pass over it (12 bytes of sums plus 3 of
    /// result, the planes being freed): 18 bytes. Plus 1 MiB for Huffman and quantization
    /// tables, row buffers and the like. (At this low limit the padding term is most of the
    /// bound: a 65,535 x 4 progressive picture takes 6.3 MB where 18 bytes a pixel are 4.7 MB.)
    static let memory = 18 * pixels + 12 * padding + (1 << 20)
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzJPEGDecoderInitialize(_ argc: UnsafeMutablePointer<CInt>,
                                      _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    guard AllocationCounter.install() else { fatalError("no allocation hooks: build with scripts/fuzz.sh jpeg") }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGDecoder(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    checkDecode(Data(bytes: bytes, count: count))
    return 0
}

/// The invariants: no crash or sanitizer report whatever the bytes; every error is an
/// `ImageDecodingError` with an offset inside the data; what decodes strictly decodes the same
/// with `allowPartial`; a thumbnail decode never exceeds its size; no decode has more than
/// `Bounds.memory` bytes allocated at once.
func checkDecode(_ input: Data) {
    let strict = JPEGDecoder(maximumPixelCount: Bounds.pixels)
    let partial = JPEGDecoder(allowPartial: true, maximumPixelCount: Bounds.pixels)
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

/// One decode, its error checked, its peak allocation held to `Bounds.memory`.
func result(_ decoder: JPEGDecoder, _ input: Data, maxPixelSize: Int? = nil) -> Result<RGBImage, ImageDecodingError> {
    let (outcome, peak) = AllocationCounter.measuring {
        Result { try maxPixelSize.map { try decoder.decode(input, maxPixelSize: $0) } ?? decoder.decode(input) }
    }
    guard peak <= Bounds.memory else { fatalError("a decode allocated \(peak) bytes at once, over \(Bounds.memory)") }
    switch outcome {
    case .success(let image):
        return .success(image)
    case .failure(let error as ImageDecodingError):
        guard (0...input.count).contains(error.offset) else { fatalError("offset \(error.offset) outside the data") }
        return .failure(error)
    case .failure(let error):
        fatalError("untyped error \(error)")
    }
}
