/// Why the command line was refused.
enum OptionsError: Error {
    case help
    case missingValue(String)
    case badValue(String, String)
    case unknown(String)

    var message: String {
        switch self {
        case .help: return ""
        case .missingValue(let flag): return "\(flag) needs a value"
        case .badValue(let flag, let value): return "bad value for \(flag): \(value)"
        case .unknown(let argument): return "unknown argument: \(argument)"
        }
    }
}
