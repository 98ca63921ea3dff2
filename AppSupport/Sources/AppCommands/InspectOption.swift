import ArgumentParser
import Foundation
import Oak
import OakInspector

/// `--inspect [oak://TOKEN@127.0.0.1:PORT]`: sends what the app's
/// transducers do to `oak-inspector` (OakInspector's `InspectorLink`).
/// Without an address, the inspector running on this machine is found in
/// its file.
///
/// Add it with `@OptionGroup var inspect: InspectOption`, parse the command
/// line through ``arguments(_:)`` (a bare `--inspect` takes no value), and
/// run the app in ``run(app:diagrams:isolation:_:)``.
public struct InspectOption: ParsableArguments, Sendable {
    /// What `--inspect` without an address stands for.
    static let discover = "running"

    /// The inspector's address, `running` for the one running here, or
    /// `nil` when the app is not inspected.
    @Option(
        name: .customLong("inspect"),
        help: ArgumentHelp(
            "Show what the app's transducers do in oak-inspector (started beforehand; its address, or none — or "
                + "\"running\" — for the one running on this machine).", valueName: "oak://token@127.0.0.1:port"))
    public var address: String?

    /// Not inspected.
    public init() {}

    /// The option's environment variable (`COMICS_INSPECT=running` for the
    /// inspector running here, or its address).
    public static var variables: [EnvironmentOption] { [EnvironmentOption("inspect")] }

    /// `arguments` with a bare `--inspect` (last, or before anything but
    /// an inspector's address) given its implicit value.
    public static func arguments(_ arguments: [String]) -> [String] {
        var result: [String] = []
        for (index, argument) in arguments.enumerated() {
            result.append(argument)
            guard argument == "--inspect" else { continue }
            let next = arguments.indices.contains(index + 1) ? arguments[index + 1] : nil
            if next.map({ !$0.hasPrefix("oak://") }) ?? true { result.append(discover) }
        }
        return result
    }

    /// Refuses an address that is not an inspector's, saying what to give.
    public func validate() throws {
        guard let address, address != Self.discover else { return }
        do {
            _ = try InspectorEndpoint(parsing: address)
        } catch {
            throw ValidationError("--inspect: \(error)")
        }
    }

    /// Runs `body` with every transducer run it starts (and the sessions of
    /// a web host it starts) inspected, when `--inspect` was given; the
    /// link to the inspector stops when `body` ends. The runs of a type
    /// `diagrams` has are shown on its diagram.
    ///
    /// - Throws: ``CommandError`` when no inspector runs here; what `body`
    ///   throws.
    public func run<Result>(
        app: String, diagrams: [InspectorDiagram] = [], isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async throws -> Result {
        guard let address else { return try await body() }
        let inspector = LiveInspector(diagrams: diagrams)
        let link: InspectorLink
        do {
            // Discovered, the link reads the file again when the inspector
            // goes away: one restarted since is found.
            link =
                address == Self.discover
                ? try InspectorLink(discovering: inspector, app: app)
                : InspectorLink(inspector, to: try InspectorEndpoint(parsing: address), app: app)
        } catch {
            throw CommandError("\(error)")
        }
        link.start()
        defer {
            inspector.close()
            link.stop()
        }
        return try await TransducerInspection.$inspector.withValue(inspector, operation: body, isolation: isolation)
    }
}
