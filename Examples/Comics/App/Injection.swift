// The injector: builds the adapters (the offline catalog or xkcd.com; the
// SQLite store, or PostgreSQL with --database) and injects them into the
// features' ports. Each adapter that must be closed is added to the
// command's services, which close it when the command ends.

import AppCommands
import ComicsFeature
import ComicsMain
import ComicsTerminal
import FavouritesFeature
import FixtureServer
import Foundation
import Logging
import OakInspector
import Persistence
import PostgresPersistence
import PostgresSupport
import Services

extension Sources {
    /// Runs `body` with the features' live ports; the offline catalog's
    /// server runs meanwhile. With `readOnly`, a favourites file is opened
    /// for reading only (a read-only data directory works).
    func withEnv<R>(
        loadsImages: Bool = MainTerminalApp.showsImages, readOnly: Bool = false,
        isolation: isolated (any Actor)? = #isolation, _ body: (Main.Env) async throws -> R
    ) async throws -> R {
        try await AppServices.with(logger: Logger(label: "oak.comics")) { services in
            try await body(try await env(loadsImages: loadsImages, readOnly: readOnly, services: &services))
        }
    }

    /// The features' live ports; what they use (the offline catalog's
    /// server, the database) is added to `services`, which close it.
    func env(
        loadsImages: Bool = MainTerminalApp.showsImages, readOnly: Bool = false, services: inout AppServices
    ) async throws -> Main.Env {
        var base = URL(string: "https://xkcd.com") ?? URL(fileURLWithPath: "/")
        if !live {
            let server = try await FixtureServer.start()
            services.closing("the offline catalog") { await server.stop() }
            base = URL(string: server.baseURL) ?? base
        }
        let store = try await favourites(readOnly: readOnly, services: &services)
        let comics = ComicsEnv.live(
            source: ComicsSource(base: base), favourites: store, loadsImages: loadsImages, cache: ComicsCache())
        let favourites = FavouritesEnv.live(store)
        // Before the store: the list's run lets go of the change feed.
        services.closing("the favourites list") { await favourites.list.close() }
        return Main.Env(comics: comics, favourites: favourites)
    }

    /// The favourites' store: the database's, or the data directory's file.
    /// A database that cannot be reached ends the program (the reason
    /// says what to check); a file that cannot be opened is reported by
    /// the features, which go on without favourites.
    private func favourites(
        readOnly: Bool, services: inout AppServices
    ) async throws -> Result<any FavouritesStorage, PersistenceError> {
        let logger = Logger(label: "oak.comics.database")
        // Nothing made before the store: a parent that cannot be made is
        // the store's to report (the app goes on without favourites).
        switch try await storage.open(writing: false, services: &services, logger: logger) {
        case .database(let database):
            do throws(PersistenceError) {
                return .success(try await PostgresFavourites.open(database, logger: logger))
            } catch {
                throw CommandError(error.description)
            }
        case .directory(let directory):
            if storage.dataDir == nil, !readOnly { try? StoragePlace.makeParent(of: directory, keeping: "favourites") }
            return Result { () throws(PersistenceError) -> any FavouritesStorage in
                readOnly ? try FavouritesStore(readingFrom: directory) : try FavouritesStore(directory: directory)
            }
        }
    }
}

/// What `--inspect` shows the runs on.
enum Inspection {
    /// The Comics feature's state diagram as its tests explored it
    /// (`ComicsDiagramTests` checks that it reads and is theirs).
    static var diagrams: [InspectorDiagram] {
        let comics = try? InspectorDiagram(
            of: Comics.self, mermaid: ComicsDiagram.mermaid, node: { $0.phase.name }, event: { $0.name })
        return comics.map { [$0] } ?? []
    }
}
