import Foundation

/// Why a JPEG could not be decoded, and the byte offset (from the start of the data) where the
/// decoder found out.
///
/// ```swift
/// do { _ = try JPEGDecoder().decode(data) }
/// catch let error as ImageDecodingError where error.reason == .truncated { ... }
/// ```
public struct ImageDecodingError: Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
    /// What was wrong with the bytes; `offset` says where it was found.
    public let reason: Reason
    /// Byte offset in the data where the problem was found.
    public let offset: Int

    /// Makes an error for `reason` found at byte `offset`.
    public init(_ reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// The kinds of failure, typed so callers can match them.
    public enum Reason: Sendable, Equatable {
        /// The data does not start with a JPEG start-of-image marker (`FF D8`).
        case notJPEG
        /// The data ended before the image did (inside a segment, a scan, or before `EOI`).
        case truncated
        /// A marker segment (`marker` is its second byte, e.g. `0xC4` for DHT) has a bad length
        /// or bad contents.
        case malformedSegment(marker: UInt8)
        /// A marker that is not allowed where it appears (e.g. a scan before any frame header).
        case unexpectedMarker(UInt8)
        /// A valid JPEG feature this decoder does not implement.
        case unsupported(Feature)
        /// A scan refers to a Huffman table that was never defined.
        case missingHuffmanTable
        /// A component refers to a quantization table that was never defined.
        case missingQuantizationTable
        /// The entropy-coded data holds a bit pattern no Huffman code matches, or a run that
        /// leaves the 8x8 block.
        case invalidHuffmanCode
        /// A restart marker is missing or out of sequence.
        case badRestartMarker
        /// Width or height is zero (the `DNL` form of height is not supported either).
        case invalidDimensions
        /// `width * height` exceeds the decoder's `maximumPixelCount`.
        case imageTooLarge(pixels: Int, limit: Int)
        /// More scans than a sane progressive file has (a CPU bomb guard).
        case tooManyScans(limit: Int)
        /// `maxPixelSize` was zero or negative.
        case invalidMaxPixelSize(Int)
    }

    /// JPEG features that are valid but refused with a clear error instead of a wrong picture.
    public enum Feature: Sendable, Equatable {
        /// Arithmetic entropy coding (SOF9-SOF15 and DAC).
        case arithmeticCoding
        /// Lossless JPEG (SOF3).
        case lossless
        /// Hierarchical (differential) JPEG (SOF5-SOF7, DHP, EXP).
        case hierarchical
        /// Sample precision other than 8 bits (12-bit JPEG).
        case precision(Int)
        /// A component count other than 1, 3 or 4.
        case componentCount(Int)
        /// Sampling factors whose ratios are not whole numbers (libjpeg refuses them too).
        case fractionalSampling
    }

    /// A short English description naming the problem and where it is.
    public var description: String {
        "\(Self.text(reason)) at byte \(offset)"
    }

    /// The same text as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }

    private static func text(_ reason: Reason) -> String {
        switch reason {
        case .notJPEG: "not a JPEG (no start-of-image marker)"
        case .truncated: "JPEG data ends early"
        case .malformedSegment(let marker): "malformed JPEG segment FF \(hex(marker))"
        case .unexpectedMarker(let marker): "unexpected JPEG marker FF \(hex(marker))"
        case .unsupported(let feature): "unsupported JPEG feature: \(text(feature))"
        case .missingHuffmanTable: "scan uses an undefined Huffman table"
        case .missingQuantizationTable: "component uses an undefined quantization table"
        case .invalidHuffmanCode: "corrupt entropy-coded data"
        case .badRestartMarker: "missing or out-of-sequence restart marker"
        case .invalidDimensions: "JPEG width or height is zero"
        case .imageTooLarge(let pixels, let limit): "image of \(pixels) pixels exceeds the limit of \(limit)"
        case .tooManyScans(let limit): "more than \(limit) scans"
        case .invalidMaxPixelSize(let size): "maxPixelSize \(size) is not positive"
        }
    }

    private static func text(_ feature: Feature) -> String {
        switch feature {
        case .arithmeticCoding: "arithmetic coding"
        case .lossless: "lossless JPEG"
        case .hierarchical: "hierarchical JPEG"
        case .precision(let bits): "\(bits)-bit samples"
        case .componentCount(let count): "\(count) components"
        case .fractionalSampling: "fractional sampling factors"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
