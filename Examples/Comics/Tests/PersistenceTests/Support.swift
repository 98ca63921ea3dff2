import Dispatch
import Foundation
import Persistence

/// A new directory under the system's temporary directory, removed with
/// everything in it when released.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "oak-comics-persistence-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The URL of `name` inside the directory.
    func appending(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// The names of the directory's entries, sorted.
    func entries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}

/// A favourite as the tests write it: title "Comic N", added `second`
/// seconds after a fixed moment (whole seconds, which the store keeps exactly).
func favourite(_ number: Int, addedAt second: Int = 0, title: String? = nil) -> StoredFavourite {
    StoredFavourite(
        number: number, title: title ?? "Comic \(number)",
        addedAt: Date(timeIntervalSince1970: 1_700_000_000 + TimeInterval(second)))
}

/// Runs `body` on a thread of its own (a dispatch queue, outside Swift's
/// cooperative pool), where it may block on SQLite's locks without
/// starving the tests that share the pool.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result(catching: body))
        }
    }
}

/// Whether the tests run on Linux.
let isLinux: Bool = {
    #if os(Linux)
    true
    #else
    false
    #endif
}()
