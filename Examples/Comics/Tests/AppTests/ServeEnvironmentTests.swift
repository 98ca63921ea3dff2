// `comics serve` configured by its environment alone, as a container or a
// service manager starts it: every option has a variable (the help lists
// each), the values reach the server (its port, its data directory) and
// are validated as typed ones are.

import Foundation
import TerminalTesting
import Testing
import WebTesting

@Suite("comics serve takes its options from the environment", .timeLimit(.minutes(1)))
struct ServeEnvironmentTests {
    @Test func everyOptionOfServeHasAVariable() async throws {
        let comics = try ComicsProgram.url()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let help = try await Subprocess.run(comics, ["serve", "--help"], scratch: scratch.url)
        #expect(help.exited(with: 0), "\(help)")
        let options = Set(
            help.output.split(whereSeparator: { " \n,[]".contains($0) })
                .filter { $0.hasPrefix("--") && $0 != "--help" }.map { String($0) })
        #expect(options.count >= 7, "\(help)")
        for option in options {
            let variable = "COMICS_" + option.dropFirst(2).uppercased().replacing("-", with: "_")
            #expect(help.output.contains("\(variable) for \(option)"), "\(option) has no variable: \(help.output)")
        }
    }

    @Test func theEnvironmentConfiguresTheServer() async throws {
        let comics = try ComicsProgram.url()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        var server: ServerProcess?
        var port = 0
        for _ in 0..<5 where server == nil {
            port = Int.random(in: 40_000..<60_000)
            server = try? await ServerProcess.start(
                comics, arguments: ["serve"],
                environment: ["COMICS_PORT": "\(port)", "COMICS_DATA_DIR": scratch.path("data").path])
        }
        let started = try #require(server)
        #expect(started.baseURL.hasSuffix(":\(port)"), "\(started.baseURL)")
        #expect(try await WebClient(base: started.baseURL).get("/").status == 200)
        #expect(await started.stop() == 0)

        let refused = try await Subprocess.run(
            comics, ["serve"], environment: ["COMICS_MAX_SESSIONS": "0", "PATH": "/usr/bin:/bin"],
            scratch: scratch.url)
        #expect(refused.exited(with: 64), "\(refused)")
        #expect(refused.errors.contains("--max-sessions takes a number from 1."), "\(refused)")
    }
}
