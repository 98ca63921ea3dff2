// Options read from the environment as well as the command line, as a
// container or a service manager sets them: the command line first, then
// the environment, then the defaults (Hummingbird's template does the same
// with its own reader). ArgumentParser reads the command line only, so the
// environment's values are turned into the options they stand for, added
// after those given.

import Foundation

/// An option of a command that may also come from the environment.
public struct EnvironmentOption: Hashable, Sendable {
    /// How the option takes its value.
    public enum Kind: Hashable, Sendable {
        /// `--name VALUE`.
        case value
        /// `--name`, given when the variable is `1`, `true` or `yes`.
        case flag
        /// `--name VALUE` once per comma-separated item (a repeatable
        /// option).
        case list
    }

    /// The option's long name, without the dashes: `max-sessions`.
    public var name: String
    /// How it takes its value.
    public var kind: Kind

    /// An option `--name` of `kind`.
    public init(_ name: String, _ kind: Kind = .value) {
        self.name = name
        self.kind = kind
    }

    /// The environment variable that gives the option: the prefix, then
    /// the name in capitals with `_` for `-` (`STANDUPS_MAX_SESSIONS`).
    public func variable(prefix: String) -> String {
        prefix + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }
}

/// Adds to a command line the options its environment gives.
public enum EnvironmentArguments {
    /// `arguments` with, for each of `options` not given on the command
    /// line, the option its variable in `environment` gives, if set: the
    /// command line wins over the environment. The options added go at the
    /// end of the options (before a `--`, after which words are values).
    public static func merged(
        _ arguments: [String], options: [EnvironmentOption], prefix: String, environment: [String: String]
    ) -> [String] {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        let given = Set(
            arguments[..<end].compactMap { argument -> String? in
                guard argument.hasPrefix("--") else { return nil }
                return String(argument.dropFirst(2).prefix { $0 != "=" })
            })
        var added: [String] = []
        for option in options where !given.contains(option.name) {
            guard let value = environment[option.variable(prefix: prefix)] else { continue }
            switch option.kind {
            case .value:
                // `--name=value`: a value that starts with "-" stays a value.
                added.append("--\(option.name)=\(value)")
            case .flag:
                if ["1", "true", "yes"].contains(value.lowercased()) { added.append("--\(option.name)") }
            case .list:
                for item in value.split(separator: ",") {
                    let item = item.trimmingCharacters(in: .whitespaces)
                    if !item.isEmpty { added.append("--\(option.name)=\(item)") }
                }
            }
        }
        var merged = arguments
        merged.insert(contentsOf: added, at: end)
        return merged
    }

    /// `arguments` (a command line without the program's name) with the
    /// options the environment gives added when they run `subcommand`
    /// (its name first); else unchanged.
    public static func merged(
        _ arguments: [String], subcommand: String, options: [EnvironmentOption], prefix: String,
        environment: [String: String]
    ) -> [String] {
        guard arguments.first == subcommand else { return arguments }
        return [subcommand]
            + merged(Array(arguments.dropFirst()), options: options, prefix: prefix, environment: environment)
    }

    /// What a command's help says about its environment: each variable and
    /// the option it stands for.
    public static func help(options: [EnvironmentOption], prefix: String) -> String {
        let lines = options.map { option in
            "  \(option.variable(prefix: prefix)) for --\(option.name)"
                + (option.kind == .flag ? " (1 or true)" : option.kind == .list ? " (comma-separated)" : "")
        }
        return (["Every option can also be set in the environment (the command line wins):"] + lines)
            .joined(separator: "\n")
    }
}
