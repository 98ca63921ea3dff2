// What some tests need of the machine: capabilities to mount a file
// system or make a file immutable (root, as on CI), and `chattr`.

import Foundation

/// Whether this process has capability `bit` among its effective ones.
public func hasCapability(_ bit: Int) -> Bool {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
        let capabilities = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    else { return false }
    return capabilities & (1 << bit) != 0
}

/// Whether this process may mount a file system (CAP_SYS_ADMIN).
public let mayMount = hasCapability(21)

/// Whether this process may make a file immutable (CAP_LINUX_IMMUTABLE,
/// and `chattr`): an immutable file refuses every write at once, also
/// through a descriptor opened before, and also root's — where permission
/// bits stop neither.
public let mayMakeImmutable =
    hasCapability(9) && FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr")

/// Runs `chattr` with `flag` (`+i`, `-i`) on `files`, throwing unless it
/// succeeds.
public func chattr(_ flag: String, _ files: [URL]) throws {
    guard !files.isEmpty else { return }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
    process.arguments = [flag] + files.map(\.path)
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: files[0].path])
    }
}

/// The files of the SQLite database `name` in `directory` that writes go
/// to — the database and its write-ahead log — to make immutable; not its
/// shared-memory index, which SQLite maps (a write to an immutable mapping
/// kills the process).
public func sqliteFiles(named name: String, in directory: URL) throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        .filter { $0.lastPathComponent == name || $0.lastPathComponent == name + "-wal" }
}
