import Foundation
import Networking
import TestSupport
import XCTest

private struct Nested: Encodable { let a = "a" }

/// Alamofire's `EncodableStruct`.
private struct Mixed: Encodable {
    let one = "one"
    let two = 2
    let three = true
    let four = [1, 2, 3]
    let five = ["a": "a"]
    let six = ["a": ["b": "b"]]
    let seven = Nested()
}

private class Superclass: Encodable {
    let one = "one"
    let two = 2
    let three = true
}

private struct Optionals: Encodable {
    let a: String? = nil
    let b = "b"
    let c: Int? = nil
}

private struct FailingNil: Encodable {
    enum Keys: String, CodingKey { case a }
    let keyed: Bool

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        if keyed {
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
            try nested.encodeNil(forKey: .a)
        } else {
            var nested = container.nestedUnkeyedContainer(forKey: .a)
            try nested.encodeNil()
        }
    }
}

/// `URLEncodedFormEncoder` against the outputs Alamofire's own tests expect.
final class URLEncodedFormEncoderTests: LeakCheckingTestCase {
    private let encoder = URLEncodedFormEncoder()

    private func text(_ value: any Encodable, _ encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) throws -> String {
        try encoder.encode(value)
    }

    func testScalarsAndDictionaries() throws {
        XCTAssertEqual(try text(["a": "a"]), "a=a")
        XCTAssertEqual(try text(["a": Decimal(1)]), "a=1")
        XCTAssertEqual(try text(["a": Decimal(string: "1.123456")]), "a=1.123456")
        XCTAssertEqual(try text(["a": 1.0]), "a=1.0")
        XCTAssertEqual(try text(["a": Float(1.0)]), "a=1.0")
        XCTAssertEqual(try text(["a": Int8(1)]), "a=1")
        XCTAssertEqual(try text(["a": UInt64(1)]), "a=1")
        XCTAssertEqual(try text(["a": ["b": "b"]]), "a%5Bb%5D=b")
        XCTAssertEqual(try text(["u": URL(string: "http://h/p?q")]), "u=http%3A//h/p?q")
    }

    func testEncodableStructsAndClasses() throws {
        XCTAssertEqual(try text(Mixed()),
                       "five%5Ba%5D=a&four%5B%5D=1&four%5B%5D=2&four%5B%5D=3&one=one&seven%5Ba%5D=a&six%5Ba%5D%5Bb%5D=b&three=1&two=2")
        XCTAssertEqual(try text(Superclass()), "one=one&three=1&two=2")
        XCTAssertEqual(try text(Mixed(), URLEncodedFormEncoder(alphabetizeKeyValuePairs: false)),
                       "one=one&two=2&three=1&four%5B%5D=1&four%5B%5D=2&four%5B%5D=3&five%5Ba%5D=a&six%5Ba%5D%5Bb%5D=b&seven%5Ba%5D=a",
                       "the order the value wrote")
    }

    func testArrayEncodings() throws {
        let indexed = URLEncodedFormEncoder(arrayEncoding: .indexInBrackets)
        XCTAssertEqual(try text(Mixed(), indexed),
                       "five%5Ba%5D=a&four%5B0%5D=1&four%5B1%5D=2&four%5B2%5D=3&one=one&seven%5Ba%5D=a&six%5Ba%5D%5Bb%5D=b&three=1&two=2")
        XCTAssertEqual(try text(["foo": [Superclass()]], indexed), "foo%5B0%5D%5Bone%5D=one&foo%5B0%5D%5Bthree%5D=1&foo%5B0%5D%5Btwo%5D=2")
        XCTAssertEqual(try text(["foo": [["bar": 2], ["qux": 3], ["quy": 4]]], indexed), "foo%5B0%5D%5Bbar%5D=2&foo%5B1%5D%5Bqux%5D=3&foo%5B2%5D%5Bquy%5D=4")
        XCTAssertEqual(try text(["foo": [["bar": true], ["qux": false], ["quy": true]]], indexed),
                       "foo%5B0%5D%5Bbar%5D=1&foo%5B1%5D%5Bqux%5D=0&foo%5B2%5D%5Bquy%5D=1")
        XCTAssertEqual(try text(["array": [1, 2]], URLEncodedFormEncoder(arrayEncoding: .noBrackets)), "array=1&array=2")
        let custom = URLEncodedFormEncoder(arrayEncoding: .custom { key, index in "\(key).\(index + 1)" })
        XCTAssertEqual(try text(["array": [1, 2]], custom), "array.1=1&array.2=2")
    }

    func testBoolDataAndDateEncodings() throws {
        XCTAssertEqual(try text(["bool": true]), "bool=1")
        XCTAssertEqual(try text(["bool": true], URLEncodedFormEncoder(boolEncoding: .literal)), "bool=true")
        XCTAssertEqual(try text(["data": Data("data".utf8)]), "data=ZGF0YQ%3D%3D")
        XCTAssertEqual(try text(["data": Data([1, 2])], URLEncodedFormEncoder(dataEncoding: .deferredToData)), "data%5B%5D=1&data%5B%5D=2")
        XCTAssertEqual(try text(["data": Data([1, 2])], URLEncodedFormEncoder(dataEncoding: .custom { "\($0.count) bytes" })), "data=2%20bytes")
        let date = Date(timeIntervalSinceReferenceDate: 123.456)
        XCTAssertEqual(try text(["date": date]), "date=123.456")
        XCTAssertEqual(try text(["date": date], URLEncodedFormEncoder(dateEncoding: .secondsSince1970)), "date=978307323.456")
        XCTAssertEqual(try text(["date": date], URLEncodedFormEncoder(dateEncoding: .millisecondsSince1970)), "date=978307323456.0")
        XCTAssertEqual(try text(["date": date], URLEncodedFormEncoder(dateEncoding: .iso8601)), "date=2001-01-01T00%3A02%3A03Z")
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSSS"
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        XCTAssertEqual(try text(["date": date], URLEncodedFormEncoder(dateEncoding: .formatted(formatter))), "date=2001-01-01%2000%3A02%3A03.4560")
        XCTAssertEqual(try text(["date": date], URLEncodedFormEncoder(dateEncoding: .custom { "\($0.timeIntervalSinceReferenceDate)" })),
                       "date=123.456")
    }

    func testCustomEncodingsThrowWhatTheirClosuresThrow() {
        let dataFailing = URLEncodedFormEncoder(dataEncoding: .custom { _ in throw TestError(1) })
        XCTAssertThrowsError(try text(["data": Data("data".utf8)], dataFailing)) { XCTAssertEqual($0 as? TestError, TestError(1)) }
        let dateFailing = URLEncodedFormEncoder(dateEncoding: .custom { _ in throw TestError(2) })
        XCTAssertThrowsError(try text(["date": Date()], dateFailing)) { XCTAssertEqual($0 as? TestError, TestError(2)) }
    }

    func testKeyEncodings() throws {
        let key = ["oneTwoThree": "oneTwoThree"]
        XCTAssertEqual(try text(key, URLEncodedFormEncoder(keyEncoding: .convertToSnakeCase)), "one_two_three=oneTwoThree")
        XCTAssertEqual(try text(key, URLEncodedFormEncoder(keyEncoding: .convertToKebabCase)), "one-two-three=oneTwoThree")
        XCTAssertEqual(try text(key, URLEncodedFormEncoder(keyEncoding: .capitalized)), "OneTwoThree=oneTwoThree")
        XCTAssertEqual(try text(key, URLEncodedFormEncoder(keyEncoding: .lowercased)), "onetwothree=oneTwoThree")
        XCTAssertEqual(try text(key, URLEncodedFormEncoder(keyEncoding: .uppercased)), "ONETWOTHREE=oneTwoThree")
        XCTAssertEqual(try text(key, URLEncodedFormEncoder(keyEncoding: .custom { _ in "A" })), "A=oneTwoThree")
        XCTAssertEqual(URLEncodedFormEncoder.KeyEncoding.convertToSnakeCase.encode("myURLProperty"), "my_url_property")
        XCTAssertEqual(URLEncodedFormEncoder.KeyEncoding.convertToSnakeCase.encode("_oneTwo"), "_one_two")
        XCTAssertEqual(try text(["outerKey": ["innerKey": 1]], URLEncodedFormEncoder(keyEncoding: .convertToSnakeCase)),
                       "outer_key%5Binner_key%5D=1", "each key of a path")
    }

    func testKeyPathAndNilEncodings() throws {
        XCTAssertEqual(try text(["a": ["b": ["c": 1]]], URLEncodedFormEncoder(keyPathEncoding: .dots)), "a.b.c=1")
        XCTAssertEqual(try text(["a": ["b": 1]], URLEncodedFormEncoder(keyPathEncoding: .init { "/\($0)" })), "a/b=1")
        XCTAssertEqual(try text(Optionals()), "b=b", "nil values are dropped with their keys by default")
        XCTAssertEqual(try text(Optionals(), URLEncodedFormEncoder(nilEncoding: .dropValue)), "a=&b=b&c=")
        XCTAssertEqual(try text(Optionals(), URLEncodedFormEncoder(nilEncoding: .null)), "a=null&b=b&c=null")
        XCTAssertEqual(try text(["s": nil, "t": "t"] as [String: String?]), "t=t")
        XCTAssertEqual(try text(FailingNil(keyed: true)), "")
        XCTAssertEqual(try text(FailingNil(keyed: false), URLEncodedFormEncoder(nilEncoding: .null)), "a%5B%5D=null")
    }

    func testSpacesAndAllowedCharacters() throws {
        XCTAssertEqual(try text(["spaces": "replace with spaces"], URLEncodedFormEncoder(spaceEncoding: .plusReplaced)),
                       "spaces=replace+with+spaces")
        var allowed = CharacterSet.afURLQueryAllowed
        allowed.remove(charactersIn: "?/")
        XCTAssertEqual(try text(["allowed": "?/"], URLEncodedFormEncoder(allowedCharacters: allowed)), "allowed=%3F%2F")
        XCTAssertEqual(try text(["lowercase": "abcdefghijklmnopqrstuvwxyz", "numbers": "0123456789", "uppercase": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]),
                       "lowercase=abcdefghijklmnopqrstuvwxyz&numbers=0123456789&uppercase=ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        XCTAssertEqual(try text(["reserved": ":#[]@!$&'()*+,;="]), "reserved=%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D")
        XCTAssertEqual(try text(["illegal": " \"#%<>[]\\^`{}|"]), "illegal=%20%22%23%25%3C%3E%5B%5D%5C%5E%60%7B%7D%7C")
        XCTAssertEqual(try text(["foo&bar": "baz&qux", "foobar": "bazqux"]), "foo%26bar=baz%26qux&foobar=bazqux")
        XCTAssertEqual(try text(["?foo?": "?bar?"]), "?foo?=?bar?")
        XCTAssertEqual(try text(["foo": "/bar/baz/qux"]), "foo=/bar/baz/qux")
        XCTAssertEqual(try text([" foo ": " bar "]), "%20foo%20=%20bar%20")
        XCTAssertEqual(try text(["+foo+": "+bar+"]), "%2Bfoo%2B=%2Bbar%2B")
        XCTAssertEqual(try text(["percent%": "%25"]), "percent%25=%2525")
        XCTAssertEqual(try text(["french": "français", "japanese": "日本語", "arabic": "العربية", "emoji": "😃"]),
                       "arabic=%D8%A7%D9%84%D8%B9%D8%B1%D8%A8%D9%8A%D8%A9&emoji=%F0%9F%98%83&french=fran%C3%A7ais&japanese=%E6%97%A5%E6%9C%AC%E8%AA%9E")
    }

    func testARootThatIsNotKeyedIsRejected() {
        XCTAssertThrowsError(try text([1])) { error in
            guard case URLEncodedFormEncoder.Error.invalidRootObject = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try text("string")) { error in
            XCTAssertEqual(error as? URLEncodedFormEncoder.Error, .invalidRootObject("string(string)"))
        }
    }

    func testDataForm() throws {
        let data: Data = try encoder.encode(["a": "b c"])
        XCTAssertEqual(data.utf8Text, "a=b%20c")
    }
}
