import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A fully described request: the URL string, method, task, headers and its stubbed answer.
public struct Endpoint: Sendable {
    /// The answer a stubbing provider gives instead of sending the request; called once per request.
    public typealias SampleResponseClosure = @Sendable () -> EndpointSampleResponse

    /// The absolute URL as a string.
    public let url: String
    /// What a stubbing provider answers for this endpoint (by default 200 with the target's `sampleData`).
    public var sampleResponseClosure: SampleResponseClosure {
        switch sample {
        case .closure(let closure): closure
        case .data(let data): { .networkResponse(200, data) }
        }
    }
    /// The stubbed answer as given: the default one is kept as its data, so that an endpoint
    /// made for every request costs no closure until a stub asks for it.
    let sample: Sample
    /// The method sent, and the one retries and multipart bodies are checked against.
    public let method: HTTPMethod
    /// What the request carries.
    public let task: RequestTask
    /// Header fields set on the request; `adding(newHTTPHeaderFields:)` merges more in.
    public let httpHeaderFields: [String: String]?
    /// The joined URL that `url` was made from, when it is absolute: `urlRequest()` uses it
    /// instead of parsing `url` again on every request or reading its scheme,
    /// and hands out its plain request as is.
    let joined: JoinedURL.Joined?

    /// An endpoint as given; `url` is checked only when `urlRequest()` builds the request
    /// (`ProviderError.requestMapping` if it is not a URL). `Endpoint(target:)` builds the default one.
    public init(url: String,
                sampleResponseClosure: @escaping SampleResponseClosure,
                method: HTTPMethod,
                task: RequestTask,
                httpHeaderFields: [String: String]?) {
        self.url = url
        self.sample = .closure(sampleResponseClosure)
        self.method = method
        self.task = task
        self.httpHeaderFields = httpHeaderFields
        self.joined = nil
    }

    /// Where the stubbed answer comes from.
    enum Sample: Sendable {
        /// The caller's closure.
        case closure(SampleResponseClosure)
        /// Status 200 with this body (`Endpoint(target:)`'s default).
        case data(Data)
    }

    /// An endpoint whose `url` is `joined.string`, `joined` being absolute or `nil`.
    init(url: String, sample: Sample, method: HTTPMethod,
         task: RequestTask, httpHeaderFields: [String: String]?, joined: JoinedURL.Joined?) {
        self.url = url
        self.sample = sample
        self.method = method
        self.task = task
        self.httpHeaderFields = httpHeaderFields
        self.joined = joined
    }

    /// A copy with `newHTTPHeaderFields` merged in; the new values win on equal names.
    public func adding(newHTTPHeaderFields: [String: String]) -> Endpoint {
        Endpoint(url: url, sample: sample, method: method, task: task,
                 httpHeaderFields: merged(newHTTPHeaderFields), joined: joined)
    }

    /// A copy with another task.
    public func replacing(task: RequestTask) -> Endpoint {
        Endpoint(url: url, sample: sample, method: method, task: task,
                 httpHeaderFields: httpHeaderFields, joined: joined)
    }

    private func merged(_ newHTTPHeaderFields: [String: String]) -> [String: String]? {
        guard !newHTTPHeaderFields.isEmpty else { return httpHeaderFields }
        var fields = httpHeaderFields ?? [:]
        for (name, value) in newHTTPHeaderFields {
            if let existing = fields.keys.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) {
                fields[existing] = nil
            }
            fields[name] = value
        }
        return fields
    }

    /// Builds the `URLRequest`, applying the task: parameters and bodies are encoded here. As in
    /// Moya, an upload (file or multipart) gets no body here, only its URL, method, headers and,
    /// for a composite multipart, its query: the provider builds the body (streamed from disk,
    /// with a multipart form's `Content-Type`) when it sends the request, and reports a file it
    /// cannot read or a form it cannot build then, as `ProviderError.underlying(error, nil)`. A
    /// download builds the request alone (the provider streams the body to a file and moves it).
    ///
    /// Errors: `ProviderError.requestMapping(url)` for an unusable URL, `.parameterEncoding(error)`
    /// (parameters, or an `Encodable` sent through a `ParameterEncoder`) and `.encodableMapping(error)`.
    public func urlRequest() throws -> URLRequest {
        // A plain GET is the joined URL's own request: a value, shared as `URLRequest` copies are.
        if let plain = joined?.plainRequest, case .requestPlain = task, method == .get, httpHeaderFields == nil {
            return plain
        }
        var request = URLRequest(url: try requestURL())
        // A new request is a GET already; setting the method normalizes the name through
        // NSString comparisons, a measurable share of a stubbed request.
        if method != .get { request.httpMethod = method.rawValue }
        if let httpHeaderFields { request.allHTTPHeaderFields = httpHeaderFields }

        switch task {
        case .requestPlain, .downloadDestination, .uploadFile, .uploadMultipart, .uploadMultipartFormData:
            return request
        case .requestData(let data):
            request.httpBody = data
            return request
        case .requestJSONEncodable(let encodable):
            return try Self.encoded(request, encodable: encodable, encoder: JSONEncoder())
        case .requestCustomJSONEncodable(let encodable, let encoder):
            return try Self.encoded(request, encodable: encodable, encoder: encoder)
        case .requestParameters(let parameters, let encoding), .downloadParameters(let parameters, let encoding, _):
            return try Self.encoded(request, parameters: parameters, encoding: encoding)
        case .requestEncodableParameters(let parameters, let encoder):
            return try Self.encoded(request, parameters: parameters, encoder: encoder)
        case .requestCompositeData(let bodyData, let urlParameters):
            request.httpBody = bodyData
            return try Self.encoded(request, parameters: urlParameters, encoding: URLEncoding.queryString)
        case .requestCompositeParameters(let bodyParameters, let bodyEncoding, let urlParameters):
            if let urlEncoding = bodyEncoding as? URLEncoding, urlEncoding.destination != .httpBody {
                throw ProviderError.parameterEncoding(CompositeEncodingFailure.bodyEncodingMustTargetBody)
            }
            let withBody = try Self.encoded(request, parameters: bodyParameters, encoding: bodyEncoding)
            return try Self.encoded(withBody, parameters: urlParameters, encoding: URLEncoding.queryString)
        case .uploadCompositeMultipart(_, let urlParameters), .uploadCompositeMultipartFormData(_, let urlParameters):
            return try Self.encoded(request, parameters: urlParameters, encoding: URLEncoding.queryString)
        }
    }

    /// The joined URL (checked when it was kept), else `url` parsed; it must have a scheme.
    private func requestURL() throws -> URL {
        if let url = joined?.absolute { return url }
        guard let parsed = URL(string: url), parsed.scheme != nil else {
            throw ProviderError.requestMapping(url)
        }
        return parsed
    }

    private static func encoded(_ request: URLRequest, encodable: any Encodable, encoder: JSONEncoder) throws -> URLRequest {
        var request = request
        do {
            request.httpBody = try encoder.encode(encodable)
        } catch {
            throw ProviderError.encodableMapping(error)
        }
        if request.value(forHTTPHeaderField: "Content-Type") == nil {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    private static func encoded<Parameters: Encodable & Sendable>(
        _ request: URLRequest, parameters: Parameters, encoder: any ParameterEncoder
    ) throws -> URLRequest {
        do {
            return try encoder.encode(parameters, into: request)
        } catch {
            throw ProviderError.parameterEncoding(error)
        }
    }

    private static func encoded(_ request: URLRequest, parameters: [String: any Sendable], encoding: any ParameterEncoding) throws -> URLRequest {
        do {
            return try encoding.encode(request, with: parameters)
        } catch {
            throw ProviderError.parameterEncoding(error)
        }
    }
}
