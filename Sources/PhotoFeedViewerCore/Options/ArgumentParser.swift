import Foundation

/// Parses `photo-feed`'s arguments (`--opt value` or `--opt=value`); every mistake is a ``UsageError``.
package enum ArgumentParser {
    private static let valueOptions: Set<String> = ["--base-url", "--tags", "--tagmode", "--pages", "--watch", "--timeout", "--images"]
    private static let flags: Set<String> = ["--demo", "--tls", "--offline", "--plain", "--json", "--verbose", "--no-color", "--help", "-h"]

    /// Parses `arguments` (without the program name).
    ///
    /// ```swift
    /// try ArgumentParser.parse(["--demo", "--pages=2", "--json"])
    /// ```
    package static func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
        var options = ViewerOptions()
        var seen: Set<String> = []
        var sources: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let (name, inlineValue) = split(argument)
            guard name.hasPrefix("-") else {
                throw UsageError("unexpected argument \"\(argument)\"")
            }
            if flags.contains(name) {
                if inlineValue != nil { throw UsageError("\(name) takes no value") }
                if name == "--help" || name == "-h" { return .help }
            } else if !valueOptions.contains(name) {
                throw UsageError("unknown option \(name)")
            }
            guard seen.insert(name).inserted else { throw UsageError("\(name) given more than once") }

            var value = ""
            if valueOptions.contains(name) {
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                    value = arguments[index]
                    index += 1
                } else {
                    throw UsageError("\(name) needs a value")
                }
            }

            switch name {
            case "--demo":
                options.source = .demo
                sources.append(name)
            case "--tls":
                options.tls = true
            case "--offline":
                options.source = .offline
                sources.append(name)
            case "--base-url":
                options.source = .baseURL(try baseURL(value))
                sources.append(name)
            case "--tags":
                options.tags = value
            case "--tagmode":
                let mode = value.lowercased()
                guard mode == "any" || mode == "all" else {
                    throw UsageError("--tagmode must be \"any\" or \"all\", got \"\(value)\"")
                }
                options.tagmode = mode
            case "--pages":
                guard let pages = Int(value), pages >= 1 else {
                    throw UsageError("--pages needs a whole number of at least 1, got \"\(value)\"")
                }
                options.pages = pages
            case "--watch":
                options.watch = try seconds(value, option: name)
            case "--timeout":
                options.timeout = try seconds(value, option: name)
            case "--images":
                guard let mode = ImageMode(rawValue: value.lowercased()) else {
                    let modes = ImageMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw UsageError("--images must be one of \(modes), got \"\(value)\"")
                }
                options.images = mode
            case "--plain":
                options.format = .plain
            case "--json":
                options.format = .json
            case "--verbose":
                options.verbose = true
            default:
                options.color = false
            }
        }
        if sources.count > 1 {
            throw UsageError("\(sources.joined(separator: " and ")) cannot be combined: choose one source")
        }
        if options.tls && options.source != .demo {
            throw UsageError("--tls serves the demo over https: it goes with --demo")
        }
        if seen.contains("--plain") && seen.contains("--json") {
            throw UsageError("--plain and --json cannot be combined")
        }
        return .run(options)
    }

    private static func split(_ argument: String) -> (name: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private static func seconds(_ value: String, option: String) throws(UsageError) -> Duration {
        guard let seconds = Double(value), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            throw UsageError("\(option) needs a number of seconds above 0 (at most 86400), got \"\(value)\"")
        }
        return .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }

    private static func baseURL(_ value: String) throws(UsageError) -> URL {
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else {
            throw UsageError("--base-url needs an http:// or https:// URL with a host, got \"\(value)\"")
        }
        return url
    }
}
