// `comics serve`: the same features, hosted per browser session by the web
// front end (ComicsWeb), served by AppSupport's `serve` command. Options
// and injection only.

import AppCommands
import ComicsWeb
import OakInspector

/// What `comics serve` serves: the options `COMICS_PORT`, `COMICS_LIVE`…
/// may give too.
enum ComicsServed: ServedApp {
    static let variablePrefix = "COMICS_"
    static let variables = [EnvironmentOption("live", .flag)] + StorageOptions<ComicsCommand>.variables

    /// The web front end over the live ports (images loaded: a page shows
    /// them), its catalog server and storage closed when the server stops.
    static func web(_ sources: Sources, services: inout AppServices) async throws -> ComicsWeb {
        ComicsWeb(env: try await sources.env(loadsImages: true, services: &services))
    }

    static var diagrams: [InspectorDiagram] { Inspection.diagrams }
}
