// Where the inspector listens, and the token that lets an app in: given on
// the command line (`--inspect oak://TOKEN@127.0.0.1:7700`), or found in
// the file `oak-inspector` writes when it starts.

import Foundation

/// Where an app sends its entries: the `oak-inspector` on this machine, and
/// the token it printed at start.
///
/// Only a loopback address is accepted: what a run records is the app's
/// data.
public struct InspectorEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// `127.0.0.1`, `::1` or `localhost`.
    public var host: String
    /// The inspector's port for apps.
    public var port: UInt16
    /// The token the inspector printed at start.
    public var token: String

    /// An endpoint; `host` must be a loopback address.
    public init(host: String, port: UInt16, token: String) throws(InspectorEndpointError) {
        guard ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased()) else {
            throw .notLoopback(host)
        }
        guard !token.isEmpty, token.utf8.count <= 256, token.allSatisfy({ $0.isLetter || $0.isNumber }) else {
            throw .badToken
        }
        self.host = host == "[::1]" ? "::1" : host.lowercased()
        self.port = port
        self.token = token
    }

    /// Parses `oak://TOKEN@HOST:PORT`, as `oak-inspector` prints it.
    public init(parsing text: String) throws(InspectorEndpointError) {
        guard let url = URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            url.scheme == "oak", let host = url.host, let port = url.port, let token = url.user,
            let port = UInt16(exactly: port), port > 0
        else {
            throw .unreadable(text)
        }
        try self.init(host: host, port: port, token: token)
    }

    /// `oak://TOKEN@HOST:PORT`.
    public var description: String {
        "oak://\(token)@\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// The file where a running `oak-inspector` says where it listens:
    /// `$XDG_STATE_HOME/oak-inspector/endpoint`, else
    /// `~/.local/state/oak-inspector/endpoint`.
    public static func file(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let state =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
            .appendingPathComponent(".local/state", isDirectory: true)
        return state.appendingPathComponent("oak-inspector/endpoint")
    }

    /// The endpoint of the `oak-inspector` running on this machine, from
    /// its ``file(environment:)``.
    public static func discovered(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(InspectorEndpointError) -> InspectorEndpoint {
        let file = file(environment: environment)
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { throw .noneRunning(file.path) }
        return try InspectorEndpoint(parsing: text)
    }
}

/// Why an inspector's endpoint cannot be used.
public enum InspectorEndpointError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The host is not this machine's loopback address.
    case notLoopback(String)
    /// The token is empty, too long, or not letters and digits.
    case badToken
    /// The text is not `oak://TOKEN@HOST:PORT`.
    case unreadable(String)
    /// No inspector's endpoint file: none was started.
    case noneRunning(String)

    /// What is wrong and what to do.
    public var description: String {
        switch self {
        case .notLoopback(let host):
            "The inspector must run on this machine (127.0.0.1, ::1 or localhost), not \(host): what an app "
                + "records is its data."
        case .badToken:
            "The inspector's token is letters and digits, as oak-inspector prints it."
        case .unreadable(let text):
            "\"\(text)\" is not an inspector's address; give it as oak-inspector prints it: oak://TOKEN@127.0.0.1:PORT."
        case .noneRunning(let path):
            "No inspector is running (\(path) does not exist): start one with "
                + "`swift run --package-path AppSupport oak-inspector`, or give its address to --inspect."
        }
    }
}
