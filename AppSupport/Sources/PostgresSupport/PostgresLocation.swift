// Where an app's PostgreSQL database is, as a person writes it: a URL such
// as postgres://app@127.0.0.1:5432/standups (the `--database` option, or
// DATABASE_URL). Parsed once, with an error that says what is wrong.

import Foundation

/// A PostgreSQL database's address: `postgres://user[:password]@host[:port]/database`.
///
/// ```swift
/// let location = try PostgresLocation("postgres://app@127.0.0.1:5432/standups")
/// print(location)  // postgres://app@127.0.0.1:5432/standups (a password is never printed)
/// ```
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    /// The server's host name or address.
    public var host: String
    /// The server's port (5432 unless the URL names one).
    public var port: Int
    /// The user the app connects as.
    public var username: String
    /// The user's password, if the URL has one.
    public var password: String?
    /// The database's name.
    public var database: String

    /// The location `url` names.
    ///
    /// - Throws: ``PostgresLocationError`` naming what is missing or wrong.
    public init(_ url: String) throws(PostgresLocationError) {
        guard let components = URLComponents(string: url),
            let scheme = components.scheme?.lowercased(), ["postgres", "postgresql"].contains(scheme)
        else { throw .notAPostgresURL(url: Self.redacted(url)) }
        guard let host = components.host, !host.isEmpty else { throw .missing("a host", url: Self.redacted(url)) }
        guard let username = components.user, !username.isEmpty else {
            throw .missing("a user", url: Self.redacted(url))
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw .missing("a database name", url: Self.redacted(url))
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw .missing("a port from 1 to 65535", url: Self.redacted(url)) }
        self.host = host
        self.port = port
        self.username = username
        self.password = components.password
        self.database = database
    }

    /// The location a program was given: its `--database` option's URL, else
    /// `DATABASE_URL` from `environment` (when set and not empty), else
    /// `nil` (the program keeps its data elsewhere).
    ///
    /// - Throws: ``PostgresLocationError`` for a URL that is not one.
    public static func given(
        option: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(PostgresLocationError) -> PostgresLocation? {
        guard let url = option ?? environment["DATABASE_URL"].flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
        return try PostgresLocation(url)
    }

    /// The URL, its password left out.
    public var description: String {
        let user = username.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? username
        let urlHost = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)@\(urlHost):\(port)/\(database)"
    }

    /// `url` with any password replaced by `***`, for messages.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}

/// Why a database URL could not be used.
public enum PostgresLocationError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Not a `postgres://` URL.
    case notAPostgresURL(url: String)
    /// The URL lacks a part (a host, a user, a database name, a valid port).
    case missing(String, url: String)

    /// What is wrong and what to write, for the user.
    public var description: String {
        let form = "write it as postgres://user[:password]@host[:port]/database"
        switch self {
        case .notAPostgresURL(let url): return "\(url) is not a PostgreSQL URL: \(form)."
        case .missing(let part, let url): return "\(url) has no \(part): \(form)."
        }
    }
}
