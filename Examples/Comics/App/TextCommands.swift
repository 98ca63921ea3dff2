// The text commands: one comic, the favourites, the state diagram, printed
// for a script or a terminal that cannot show the full-screen app.

import AppCommands
import ArgumentParser
import ComicsFeature
import FavouritesFeature
import Foundation
import Services

struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print one comic.")

    @Argument(help: "A comic number, or \"latest\".") var number = "latest"
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var sources: Sources

    func validate() throws {
        guard number == "latest" || Int(number).map(Comic.numbers.contains) == true else {
            throw ValidationError("\"\(number)\" is not a comic number: give a number from 1, or \"latest\".")
        }
    }

    func run() async throws {
        AppLogs.bootstrap(nil)
        let request: Comics.Request = Int(number).map { .number($0) } ?? .latest
        let result = try await sources.withEnv { await ComicsPlainView.load(request, env: $0.comics) }
        let text = json ? try ComicsPlainView.json(result) : ComicsPlainView.describe(result)
        if case .failure = result, !json {  // the error, as text, on standard error
            FileHandle.standardError.write(Data((text + "\n").utf8))
        } else {
            print(text)
        }
        if case .failure = result { throw ExitCode(1) }
    }
}

struct FavouritesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favourites", abstract: "List, add or remove favourites.")

    @Argument(help: "list, add or remove.") var action = "list"
    @Argument(help: "The comic's number, for add and remove.") var number: Int?
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var sources: Sources

    /// Refuses an action it does not know, and a number that is not a
    /// comic's, saying what to type instead (before anything is opened).
    func validate() throws {
        switch (action, number) {
        case ("list", nil): return
        case ("list", _?): throw ValidationError("list takes no number: comics favourites list")
        case ("add", nil), ("remove", nil):
            throw ValidationError("\(action) needs a comic's number: comics favourites \(action) N")
        case ("add", let number?), ("remove", let number?):
            guard Comic.numbers.contains(number) else {
                throw ValidationError("\(number) is not a comic number: give a number from 1.")
            }
        default:
            throw ValidationError("\"\(action)\" is not an action: comics favourites list | add N | remove N")
        }
    }

    func run() async throws {
        AppLogs.bootstrap(nil)
        do {
            try await change()
        } catch let error as FavouritesError {
            // The user of this machine owns the files: where and why, in full.
            throw CommandError(error.detail ?? error.description)
        } catch let error as FavouritesUnavailable {
            throw CommandError(error.detail ?? error.description)
        }
    }

    private func change() async throws {
        // Listing only reads: it works on a read-only data directory.
        try await sources.withEnv(readOnly: action == "list") { env in
            switch (action, number) {
            case ("list", nil):
                let all = try await env.favourites.all()
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                    encoder.dateEncodingStrategy = .iso8601
                    let encoded = all.isEmpty ? "[]" : String(decoding: try encoder.encode(all), as: UTF8.self)
                    print(ComicsPlainView.escapingControlCharacters(encoded))
                } else {
                    print(
                        all.isEmpty
                            ? "No favourites yet: comics favourites add N"
                            : all.map { "#\($0.number)  \($0.title.plainText)" }.joined(separator: "\n"))
                }
            case ("add", let number?):
                let comic = try await ComicsPlainView.addFavourite(number, env: env.comics)
                print("#\(comic.number)  \(comic.title.plainText) is a favourite.")
            case ("remove", let number?):
                guard try await env.favourites.all().contains(where: { $0.number == number }) else {
                    print("#\(number) was not a favourite.")
                    return
                }
                try await env.favourites.remove(number)
                print("#\(number) is no longer a favourite.")
            default:
                // `validate()` refused it before anything was opened.
                throw ValidationError("Use: comics favourites list | add N | remove N")
            }
        }
    }
}

struct Graph: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the state diagram of the Comics feature (Mermaid, or Graphviz DOT).")

    @Flag(help: "Print Graphviz DOT instead of Mermaid.") var dot = false

    func run() async throws {
        // Explored from the transducer by the Comics feature's tests, which
        // keep this copy up to date: the program links no test library.
        print(dot ? ComicsDiagram.dot : ComicsDiagram.mermaid, terminator: "")
    }
}
