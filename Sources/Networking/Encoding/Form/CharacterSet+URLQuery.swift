import Foundation

extension CharacterSet {
    /// The characters left as they are in a form-encoded key or value (Alamofire's
    /// `afURLQueryAllowed`): RFC 3986's unreserved characters (`A-Z a-z 0-9 - . _ ~`) plus `?` and
    /// `/`, which a query may carry unescaped (RFC 3986, 3.4).
    public static let afURLQueryAllowed: CharacterSet = {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~?/")
        return allowed
    }()
}
