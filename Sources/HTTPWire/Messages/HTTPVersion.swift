/// An HTTP/1.x protocol version.
public struct HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    /// The major number (always 1 here).
    public var major: Int
    /// The minor number, 0 or 1.
    public var minor: Int

    /// A version as given, unchecked; the parsers only produce 1.0 and 1.1.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// `HTTP/1.0`.
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// `HTTP/1.1`.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    /// The wire form, such as `HTTP/1.1`.
    public var description: String { "HTTP/\(major).\(minor)" }

    /// Appends the wire form (`description`) without making a string of it.
    func serialize(into bytes: inout [UInt8]) {
        bytes.append(contentsOf: "HTTP/".utf8)
        bytes.append(contentsOf: String(major).utf8)
        bytes.append(UInt8(ascii: "."))
        bytes.append(contentsOf: String(minor).utf8)
    }

    static func parse(_ bytes: ArraySlice<UInt8>) -> HTTPVersion? {
        guard bytes.count == 8, bytes.starts(with: "HTTP/".utf8) else { return nil }
        let major = bytes[bytes.startIndex + 5], dot = bytes[bytes.startIndex + 6], minor = bytes[bytes.startIndex + 7]
        guard major == UInt8(ascii: "1"), dot == UInt8(ascii: "."), minor == UInt8(ascii: "0") || minor == UInt8(ascii: "1") else {
            return nil
        }
        return HTTPVersion(major: 1, minor: Int(minor - 0x30))
    }
}
