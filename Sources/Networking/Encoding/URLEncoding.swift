import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Encodes parameters as `application/x-www-form-urlencoded` text, in the query string or the body.
///
/// The format, byte for byte:
/// - keys are sorted (Swift `String` order), pairs joined with `&`, key and value with `=`;
/// - arrays follow `arrayEncoding` (default `key[]=v1&key[]=v2`), dictionaries `key[sub]=v`,
///   nested to any depth;
/// - `Bool` (and an `NSNumber` boolean) follows `boolEncoding` (default `1` / `0`); a whole
///   `Double` or `Float` is written without `.0` (`1.0` is `1`, as Alamofire writes it); an
///   optional is written as its value (`nil` as `nil`, as Alamofire writes it); other values are
///   their `String(describing:)`;
/// - keys and values are percent-encoded (UTF-8) except RFC 3986 unreserved characters
///   (`A-Z a-z 0-9 - . _ ~`) and `?` `/`, as Alamofire does; so `&` `=` `+` `[` `]` and
///   non-ASCII are escaped and a space becomes `%20`;
/// - in the query string, the text is appended to any existing query with `&`;
/// - in the body, `Content-Type: application/x-www-form-urlencoded; charset=utf-8` is set
///   unless the request already has a `Content-Type`.
public struct URLEncoding: ParameterEncoding, Equatable {
    /// Where the encoded parameters go.
    public enum Destination: Sendable, Equatable {
        /// The query string for `GET`, `HEAD`, `DELETE`; the body otherwise.
        case methodDependent
        /// Always the query string.
        case queryString
        /// Always the body.
        case httpBody
    }

    /// How an array value's key is written.
    public enum ArrayEncoding: Sendable, Equatable {
        /// `key[]=a&key[]=b` (the default).
        case brackets
        /// `key=a&key=b`.
        case noBrackets
        /// `key[0]=a&key[1]=b`.
        case indexInBrackets
        /// The key the closure returns for the element at `index` of the array under `key`.
        case custom(@Sendable (_ key: String, _ index: Int) -> String)

        /// The key written for the element at `index` of the array under `key`.
        public func encode(key: String, atIndex index: Int) -> String {
            switch self {
            case .brackets: return "\(key)[]"
            case .noBrackets: return key
            case .indexInBrackets: return "\(key)[\(index)]"
            case .custom(let encode): return encode(key, index)
            }
        }

        /// Whether both are the same built-in encoding; closures cannot be compared, so a
        /// `.custom` encoding equals nothing, itself included.
        public static func == (lhs: ArrayEncoding, rhs: ArrayEncoding) -> Bool {
            switch (lhs, rhs) {
            case (.brackets, .brackets), (.noBrackets, .noBrackets), (.indexInBrackets, .indexInBrackets): return true
            default: return false
            }
        }
    }

    /// How a boolean value is written.
    public enum BoolEncoding: Sendable, Equatable {
        /// `1` and `0` (the default).
        case numeric
        /// `true` and `false`.
        case literal

        /// The text written for `value`.
        public func encode(value: Bool) -> String {
            switch self {
            case .numeric: return value ? "1" : "0"
            case .literal: return value ? "true" : "false"
            }
        }
    }

    /// Method-dependent destination, `.brackets`, `.numeric`.
    public static let `default` = URLEncoding()
    /// Always the query string.
    public static let queryString = URLEncoding(destination: .queryString)
    /// Always the body.
    public static let httpBody = URLEncoding(destination: .httpBody)

    /// Where this encoding puts the parameters.
    public let destination: Destination
    /// How array keys are written.
    public let arrayEncoding: ArrayEncoding
    /// How booleans are written.
    public let boolEncoding: BoolEncoding

    /// Creates an encoding; the defaults are Alamofire's (`.methodDependent`, `.brackets`, `.numeric`).
    public init(destination: Destination = .methodDependent, arrayEncoding: ArrayEncoding = .brackets,
                boolEncoding: BoolEncoding = .numeric) {
        self.destination = destination
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
    }

    /// Puts `parameters` in the query string or the body, per `destination`.
    public func encode(_ request: URLRequest, with parameters: [String: any Sendable]?) throws -> URLRequest {
        guard let parameters else { return request }
        var request = request
        if encodesInURL(request.httpMethod ?? "GET") {
            guard let url = request.url else { throw ParameterEncodingFailure.missingURL }
            guard !parameters.isEmpty,
                  var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return request }
            let existing = components.percentEncodedQuery.map { $0.isEmpty ? "" : $0 + "&" } ?? ""
            components.percentEncodedQuery = existing + query(parameters)
            if let encodedURL = components.url { request.url = encodedURL }
        } else {
            if request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue("application/x-www-form-urlencoded; charset=utf-8", forHTTPHeaderField: "Content-Type")
            }
            request.httpBody = Data(query(parameters).utf8)
        }
        return request
    }

    /// Whether a request sent with `method` carries the parameters in its URL: `.methodDependent`
    /// does for `GET`, `HEAD` and `DELETE` only, so any other method (one without an `HTTPMethod`
    /// case too) carries them in its body, as Alamofire's does.
    private func encodesInURL(_ method: String) -> Bool {
        switch destination {
        case .queryString: return true
        case .httpBody: return false
        case .methodDependent: return ["GET", "HEAD", "DELETE"].contains(method.uppercased())
        }
    }

    /// The encoded text for `parameters` with Alamofire's default array and bool encodings (no leading `?`).
    public static func query(_ parameters: [String: any Sendable]) -> String {
        URLEncoding().query(parameters)
    }

    /// The encoded text for `parameters` with this encoding's array and bool encodings (no leading `?`).
    public func query(_ parameters: [String: any Sendable]) -> String {
        var pairs: [String] = []
        for key in parameters.keys.sorted() {
            if let value = parameters[key] {
                appendComponents(key: key, value: value, into: &pairs)
            }
        }
        return pairs.joined(separator: "&")
    }

    private func appendComponents(key: String, value: Any, into pairs: inout [String]) {
        if let optional = value as? any OptionalParameter, let wrapped = optional.wrappedParameter {
            appendComponents(key: key, value: wrapped, into: &pairs)
        } else if let dictionary = value as? [String: Any] {
            for nestedKey in dictionary.keys.sorted() {
                if let nested = dictionary[nestedKey] {
                    appendComponents(key: "\(key)[\(nestedKey)]", value: nested, into: &pairs)
                }
            }
        } else if let array = value as? [Any] {
            for (index, element) in array.enumerated() {
                appendComponents(key: arrayEncoding.encode(key: key, atIndex: index), value: element, into: &pairs)
            }
        } else if let bool = Self.boolean(value) {
            pairs.append(Self.escape(key) + "=" + Self.escape(boolEncoding.encode(value: bool)))
        } else {
            pairs.append(Self.escape(key) + "=" + Self.escape(Self.text(value)))
        }
    }

    /// `value` as Alamofire writes it: a whole `Double` or `Float` without its `.0` (`1.0` is
    /// `1`, as `NSNumber` prints it on Apple platforms), anything else `String(describing:)`.
    private static func text(_ value: Any) -> String {
        var double: Double?
        if type(of: value) == Double.self {
            double = value as? Double
        } else if type(of: value) == Float.self {
            double = (value as? Float).map(Double.init)
        } else if let number = value as? NSNumber, type(of: value) is NSNumber.Type, "fd".contains(String(cString: number.objCType)) {
            double = number.doubleValue
        }
        if let double, double.rounded() == double, abs(double) < 1e15 { return String(Int64(double)) }
        return String(describing: value)
    }

    /// `value` as a boolean when it is a `Bool` or an `NSNumber` made from one (objCType `c`,
    /// as Alamofire tells them apart); numbers stay numbers.
    private static func boolean(_ value: Any) -> Bool? {
        if type(of: value) == Bool.self { return value as? Bool }
        if let number = value as? NSNumber, type(of: value) is NSNumber.Type, String(cString: number.objCType) == "c" {
            return number.boolValue
        }
        return nil
    }

    /// Percent-encodes `string` leaving only RFC 3986 unreserved characters and `?` `/` as they are.
    public static func escape(_ string: String) -> String {
        var result = ""
        result.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if isAllowed(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + hexDigit(byte >> 4) + hexDigit(byte & 0x0F)
            }
        }
        return result
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "?"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> String {
        String(UnicodeScalar(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10))
    }
}

/// An `Optional` seen as `Any`, so that `URLEncoding` writes the value it holds: Alamofire's
/// cast to `NSNumber` unwraps an optional number or bool the same way.
private protocol OptionalParameter {
    /// The value held, `nil` for `.none`.
    var wrappedParameter: Any? { get }
}

extension Optional: OptionalParameter {
    fileprivate var wrappedParameter: Any? { map { $0 as Any } }
}
