// Where an app keeps its data, from its options and the environment: the
// command line first (`--data-dir` wins over DATABASE_URL), a message that
// says what to change for options that cannot go together, and a default
// directory whose parent is made on a fresh machine.

import AppCommands
import ArgumentParser
import Foundation
import Logging
import PostgresSupport
import Testing

@Suite("Where an app keeps its data")
struct StoragePlaceTests {
    static let environment = ["XDG_DATA_HOME": "/data", "HOME": "/home/ann"]

    static func place(
        _ dataDir: String?, _ database: String?, _ environment: [String: String] = Self.environment
    ) throws -> StoragePlace {
        try StoragePlace(
            dataDir: dataDir, database: database, app: "oak-test", keeping: "notes", environment: environment)
    }

    @Test func theDefaultIsTheAppsDirectoryInThePlatformsDataDirectory() throws {
        #if !canImport(Darwin)
        #expect(try Self.place(nil, nil) == .directory(URL(fileURLWithPath: "/data/oak-test", isDirectory: true)))
        #endif
        #expect(try Self.place("/tmp/mine", nil) == .directory(URL(fileURLWithPath: "/tmp/mine", isDirectory: true)))
    }

    @Test func aDatabaseComesFromTheOptionElseFromTheEnvironment() throws {
        let given = try PostgresLocation("postgres://app@db/notes")
        #expect(try Self.place(nil, "postgres://app@db/notes") == .database(given))
        var environment = Self.environment
        environment["DATABASE_URL"] = "postgres://app@db/notes"
        #expect(try Self.place(nil, nil, environment) == .database(given))
        // The command line wins over the environment.
        #expect(
            try Self.place("/tmp/mine", nil, environment)
                == .directory(URL(fileURLWithPath: "/tmp/mine", isDirectory: true)))
    }

    @Test func optionsThatCannotGoTogetherSayWhatToChange() {
        #expect {
            try Self.place("/tmp/mine", "postgres://app@db/notes")
        } throws: { error in
            (error as? ValidationError)?.message
                == "Give --data-dir or --database, not both: the notes are kept in one place."
        }
        #expect {
            try Self.place(nil, "mysql://app@db/notes")
        } throws: { error in
            (error as? ValidationError)?.message.hasPrefix("--database: ") == true
        }
        // From the environment, the variable is named.
        #expect {
            try Self.place(nil, nil, ["DATABASE_URL": "mysql://app@db/notes"])
        } throws: { error in
            (error as? ValidationError)?.message.hasPrefix("DATABASE_URL: mysql://app@db/notes is not") == true
        }
    }

    /// A data directory that is a file, or under one, or empty, is said
    /// before anything starts (a server would otherwise serve pages that
    /// can keep nothing).
    @Test func aDataDirectoryThatCannotBeOneIsRefused() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("oak-place-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("file")
        try Data().write(to: file)
        #expect {
            try StoragePlace.check(file, keeping: "notes")
        } throws: { error in
            "\(error)" == "\(file.path) is a file: give --data-dir a directory for the notes."
        }
        let under = file.appendingPathComponent("sub/data")
        #expect {
            try StoragePlace.check(under, keeping: "notes")
        } throws: { error in
            "\(error)"
                == "Cannot make \(under.path) for the notes: \(file.path) is a file. Give --data-dir a directory."
        }
        try StoragePlace.check(root, keeping: "notes")
        try StoragePlace.check(root.appendingPathComponent("new/data"), keeping: "notes")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("new").path), "Nothing made.")
        #expect {
            try Self.place("", nil)
        } throws: { error in
            (error as? ValidationError)?.message == "--data-dir is empty: give the directory where the notes are kept."
        }
    }

    @Test func theDefaultsParentIsMadeOrTheReasonGiven() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("oak-place-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("share/oak-test", isDirectory: true)
        try StoragePlace.makeParent(of: directory, keeping: "notes")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("share").path))
        // A parent where a file is: the reason, with the place.
        let file = root.appendingPathComponent("file")
        try Data().write(to: file)
        #expect {
            try StoragePlace.makeParent(of: file.appendingPathComponent("sub/oak-test"), keeping: "notes")
        } throws: { error in
            "\(error)".hasPrefix("Cannot create \(file.path)/sub for the notes: ")
        }
    }

    enum Notes: StorageNaming {
        static let dataFolder = "oak-test"
        static let kept = "notes"
    }

    @Test func theOptionsGroupSpeaksOfWhatTheAppKeeps() throws {
        let help = StorageOptions<Notes>.helpMessage(columns: 500)
        #expect(help.contains("Where the notes are kept (default: $XDG_DATA_HOME/oak-test"))
        #expect(help.contains("Keep the notes in PostgreSQL instead"))
        #expect(StorageOptions<Notes>.variables.map(\.name) == ["data-dir", "database"])
        let options = try StorageOptions<Notes>.parse(["--data-dir", "/tmp/mine"])
        #expect(try options.place() == .directory(URL(fileURLWithPath: "/tmp/mine", isDirectory: true)))
        #expect {
            try StorageOptions<Notes>.parse(["--data-dir", "/tmp/mine", "--database", "postgres://app@db/notes"])
        } throws: { error in
            StorageOptions<Notes>.message(for: error)
                == "Give --data-dir or --database, not both: the notes are kept in one place."
        }
    }

    @Test func aDirectoryGivenIsOpenedAsItIs() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("oak-place-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let options = try StorageOptions<Notes>.parse(["--data-dir", root.path])
        let opened = try await AppServices.with(logger: Logger(label: "test")) { services in
            try await options.open(services: &services, logger: Logger(label: "test"))
        }
        guard case .directory(let directory) = opened else {
            Issue.record("a directory was given, and opened as \(opened)")
            return
        }
        #expect(directory.standardizedFileURL.path == root.standardizedFileURL.path)
        // The store makes a directory given; nothing is made before it.
        #expect(!FileManager.default.fileExists(atPath: root.path))
    }
}
