// Which names a web host answers for: its defence against DNS rebinding. A
// page of another site that makes its own name resolve to 127.0.0.1 reaches
// a server that a user runs locally, but its requests still carry that
// other name in `Host`; the host answers them 421 before any session is
// made, as Django's ALLOWED_HOSTS and Vite's host check do.

/// The names a ``WebHost`` answers for, in the `Host` of a request (and the
/// `Origin` of a stream's upgrade, which must match it).
///
/// Always allowed: an IP address (`127.0.0.1`, `[::1]`, `10.0.0.2`), which
/// no other site can make a browser send for its own pages, and `localhost`
/// with its subdomains (browsers resolve those to loopback themselves).
/// Any other name must be listed: the name users reach the server by
/// through a reverse proxy, say.
///
/// ```swift
/// let allowed = AllowedHosts(["standups.example.com", ".internal.example"])
/// allowed.allows("standups.example.com:8080")  // true
/// allowed.allows("team.internal.example")      // true: a leading dot allows subdomains
/// allowed.allows("attacker.example")           // false
/// ```
public struct AllowedHosts: Sendable, Hashable {
    /// The names allowed beside addresses and `localhost`, lowercased; one
    /// that starts with a dot allows every subdomain of the rest.
    public let names: Set<String>

    /// Allows addresses, `localhost` and `names` (case-insensitive; a
    /// leading dot allows the name's subdomains too).
    public init(_ names: some Sequence<String> = []) {
        self.names = Set(names.map { Self.normalised($0) }.filter { !$0.isEmpty })
    }

    /// `name` as a host name the list can hold (lowercased, a leading dot
    /// kept), or `nil` when it is not one (a scheme, a port, a path, a
    /// character a host name cannot have): for a command's validation.
    public static func name(of name: String) -> String? {
        let subdomains = name.hasPrefix(".")
        guard let plain = Self.name(ofAuthority: String(subdomains ? name.dropFirst() : Substring(name))),
            !name.contains(":")
        else { return nil }
        return subdomains ? "." + plain : plain
    }

    /// Whether a request whose `Host` (or authority) is `host` is answered.
    /// `nil` (no `Host`) is refused.
    public func allows(_ host: String?) -> Bool {
        guard let host, let name = Self.name(ofAuthority: host) else { return false }
        if Self.isAddress(name) || name == "localhost" || name.hasSuffix(".localhost") { return true }
        if names.contains(name) { return true }
        return names.contains { $0.hasPrefix(".") && (name.hasSuffix($0) || "." + name == $0) }
    }

    /// The host name of an authority (`name`, `name:port`, `[v6]:port`),
    /// lowercased and without a trailing dot; `nil` when it is not one.
    static func name(ofAuthority authority: String) -> String? {
        var text = Substring(authority)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isASCIIDigit)) else {
                return nil
            }
            return String(text[...close]).lowercased()
        }
        if let colon = text.lastIndex(of: ":") {
            guard text[text.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { return nil }
            text = text[..<colon]
        }
        let name = normalised(String(text))
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "."
        }
        return allowed && !name.isEmpty ? name : nil
    }

    /// Whether `name` is an IPv4 address (four decimal numbers up to 255)
    /// or a bracketed IPv6 one.
    static func isAddress(_ name: String) -> Bool {
        if name.hasPrefix("[") {
            return name.hasSuffix("]")
                && name.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy {
                $0.count <= 3 && !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) && (Int($0) ?? 256) <= 255
            }
    }

    private static func normalised(_ name: String) -> String {
        var name = name.lowercased()
        while name.hasSuffix(".") && name.count > 1 { name.removeLast() }
        return name
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
