import Foundation

/// Where a program keeps its data (a database file, say).
public enum DataDirectory {
    /// Returns the data directory to use; creates nothing.
    ///
    /// - The override, when given and not empty (a relative path is taken
    ///   from the current directory).
    /// - On Apple platforms: `Application Support/<name>` in the user's
    ///   home.
    /// - Elsewhere (Linux), as the XDG Base Directory specification says:
    ///   `$XDG_DATA_HOME/<name>` when `XDG_DATA_HOME` is set to an absolute
    ///   path, else `$HOME/.local/share/<name>` (the home of the user
    ///   running the process when `HOME` is not set to an absolute path
    ///   either).
    ///
    /// - Parameters:
    ///   - name: The program's own directory inside the platform's data
    ///     directory, such as `oak-comics`.
    ///   - override: A directory chosen by the user (`--data-dir`), or nil.
    ///   - environment: The variables to read; the process's own by default.
    public static func resolve(
        named name: String,
        override: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        if let override, !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        #if canImport(Darwin)
        let applicationSupport =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true).appendingPathComponent(
                "Library/Application Support", isDirectory: true)
        return applicationSupport.appendingPathComponent(name, isDirectory: true)
        #else
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return URL(fileURLWithPath: dataHome, isDirectory: true).appendingPathComponent(name, isDirectory: true)
        }
        let home =
            if let home = environment["HOME"], home.hasPrefix("/") {
                URL(fileURLWithPath: home, isDirectory: true)
            } else {
                URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
            }
        return home.appendingPathComponent(".local/share", isDirectory: true)
            .appendingPathComponent(name, isDirectory: true)
        #endif
    }
}
