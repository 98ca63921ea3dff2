// End to end in a real pseudo-terminal: `comics` in tmux, driven by keys
// as a person would, against the offline catalog and a fresh data
// directory. Every wait polls the screen with a deadline; no sleep stands
// in for a synchronisation.

import Foundation
import TerminalTesting
import Testing

@Suite(
    .enabled(if: TmuxSession.isAvailable, "tmux is not on PATH: the terminal tests need it"),
    .timeLimit(.minutes(1)))
struct TerminalTests {
    /// The screen's size: the footer is on the last row.
    static let width = 100
    static let height = 30

    @Test func browsingFavouritesAHostileTitleAndQuitting() async throws {
        let comics = try ComicsProgram.url()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let data = scratch.path("data")
        let command = try Self.script(running: comics, "--data-dir", data.path, scratch: scratch)

        try await TmuxSession.with(
            running: command, width: Self.width, height: Self.height, scratch: scratch.url
        ) { tmux in
            // The latest comic, then the previous one.
            try await tmux.waitFor("Oak Comics · comics", "#420 The Careful Lichen")
            try await tmux.send(keys: "Left")
            try await tmux.waitFor("#419 The Silver Lichen")

            // A favourite, kept on disk at once (another process reads it).
            try await tmux.send(keys: "f")
            try await tmux.waitFor("#419 The Silver Lichen  ★")
            let kept = try await Subprocess.run(
                comics, ["favourites", "list", "--data-dir", data.path], scratch: scratch.url)
            #expect(kept.exited(with: 0), "\(kept)")
            #expect(kept.output.contains("#419  The Silver Lichen"), "\(kept)")

            // The favourites scene lists it; Enter opens it.
            try await tmux.send(keys: "v")
            try await tmux.waitFor("Oak Comics · favourites", "#419  The Silver Lichen")
            try await tmux.send(keys: "Enter")
            try await tmux.waitFor("Oak Comics · comics", "#419 The Silver Lichen  ★")

            // Back to the favourites, remove it, back to the comics with Esc.
            try await tmux.send(keys: "v")
            try await tmux.waitFor("Oak Comics · favourites", "#419  The Silver Lichen")
            try await tmux.send(keys: "d")
            let emptied = try await tmux.waitFor("No favourites yet")
            #expect(!emptied.contains("#419  The Silver Lichen"), "the removed row is still listed:\n\(emptied)")
            try await tmux.send(keys: "Escape")
            try await tmux.waitFor("Oak Comics · comics", "#419 The Silver Lichen")

            // Go to #13, whose title and alt text are full of escape sequences.
            try await tmux.send(keys: "g", "1", "3", "Enter")
            try await tmux.waitFor("Red Alert", "hide in here.")
            try await Self.expectDrawnHarmlessly(tmux)

            // Quit: the program exits with 0 and leaves the terminal as it was.
            try await tmux.send(keys: "q")
            try await Self.expectRestored(tmux)
        }

        let favourites = try await Subprocess.run(
            comics, ["favourites", "list", "--json", "--data-dir", data.path], scratch: scratch.url)
        #expect(favourites.exited(with: 0), "\(favourites)")
        let list = try JSONSerialization.jsonObject(with: Data(favourites.output.utf8)) as? [Any]
        #expect(list?.isEmpty == true, "the removed favourite is still kept: \(favourites)")
    }

    /// Keys typed faster than the app answers: each is read in the state the
    /// one before led to. 21 presses of f each flip the mark; quitting at
    /// once still stores the last one (the app waits for the store).
    @Test func fastKeysAreEachReadInTheirStateAndTheLastMarkIsStored() async throws {
        let comics = try ComicsProgram.url()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let data = scratch.path("data")
        let command = try Self.script(running: comics, "--data-dir", data.path, scratch: scratch)

        try await TmuxSession.with(
            running: command, width: Self.width, height: Self.height, scratch: scratch.url
        ) { tmux in
            try await tmux.waitFor("#420 The Careful Lichen")
            try await tmux.send(keys: "g", "8", "Enter")
            try await tmux.waitFor("#8 ")
            try await tmux.send(keys: Array(repeating: "f", count: 21) + ["q"])
            try await Self.expectRestored(tmux)
        }
        let kept = try await Subprocess.run(
            comics, ["favourites", "list", "--data-dir", data.path], scratch: scratch.url)
        #expect(kept.exited(with: 0), "\(kept)")
        #expect(kept.output.hasPrefix("#8  "), "an odd number of presses leaves #8 a favourite: \(kept)")
    }

    /// Ctrl-Z stops the app and gives the terminal back to the shell; `fg`
    /// brings it back, drawn again, and the keys typed at the shell never
    /// reached it (the f of "fg" would have marked a favourite).
    @Test func ctrlZSuspendsTheAppAndFgResumesIt() async throws {
        let comics = try ComicsProgram.url()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let data = scratch.path("data")
        let run = ([comics.path, "--data-dir", data.path]).map(shellQuoted).joined(separator: " ")
        // An interactive shell, with job control, as a person has.
        let shell =
            "env -i TERM=screen HOME=\(shellQuoted(scratch.url.path)) LC_ALL=C.UTF-8 PS1='shell> ' bash --norc --noprofile -i"
        try await TmuxSession.with(running: shell, width: Self.width, height: Self.height, scratch: scratch.url) {
            tmux in
            try await tmux.waitFor("shell>")
            try await tmux.send(keys: run, "Enter")
            try await tmux.waitFor("Oak Comics · comics", "#420 The Careful Lichen")
            try await tmux.send(keys: "C-z")
            let stopped = try await tmux.waitFor("Stopped")
            #expect(!stopped.contains("Oak Comics · comics"), "the app's screen is still shown:\n\(stopped)")
            try await tmux.send(keys: "fg", "Enter")
            let back = try await tmux.waitFor("Oak Comics · comics", "#420 The Careful Lichen")
            #expect(!back.contains("★"), "a key typed at the shell reached the app:\n\(back)")
            // Stopped from outside, the same.
            let pids = try await Subprocess.run(
                try #require(Subprocess.find("pgrep")), ["-f", data.path], scratch: scratch.url)
            let pid = try #require(pids.output.split(separator: "\n").first.map(String.init), "\(pids)")
            _ = try await Subprocess.run(
                try #require(Subprocess.find("kill")), ["-TSTP", pid], scratch: scratch.url)
            try await tmux.waitFor("Stopped")
            try await tmux.send(keys: "fg", "Enter")
            try await tmux.waitFor("Oak Comics · comics", "#420 The Careful Lichen")
            try await tmux.send(keys: "q")
            try await tmux.waitFor("shell>")
        }
    }

    /// A deploy's SIGTERM, a closed terminal's SIGHUP: the app stops as if
    /// the user had quit — the terminal given back, what it kept kept, and
    /// status 0 — instead of dying by the signal.
    @Test(arguments: [SIGTERM, SIGHUP])
    func aSignalToStopEndsTheAppAsQuittingDoes(signal: Int32) async throws {
        let comics = try ComicsProgram.url()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let data = scratch.path("data")
        let command = try Self.script(running: comics, "--data-dir", data.path, scratch: scratch)
        try await TmuxSession.with(running: command, width: Self.width, height: Self.height, scratch: scratch.url) {
            tmux in
            try await tmux.waitFor("#420 The Careful Lichen", "q quit")
            try await tmux.send(keys: "f")
            try await tmux.waitFor("#420 The Careful Lichen  ★")
            try await tmux.signalProgram(signal)
            try await Self.expectRestored(tmux)
        }
        let kept = try await Subprocess.run(
            comics, ["favourites", "list", "--data-dir", data.path], scratch: scratch.url)
        #expect(kept.exited(with: 0) && kept.output.contains("#420  The Careful Lichen"), "\(kept)")
    }

    /// The terminal changes size: the app draws itself in the new size.
    @Test func aResizedTerminalIsDrawnAgainInItsNewSize() async throws {
        let comics = try ComicsProgram.url()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let command = try Self.script(running: comics, "--data-dir", scratch.path("data").path, scratch: scratch)
        try await TmuxSession.with(running: command, width: Self.width, height: Self.height, scratch: scratch.url) {
            tmux in
            try await tmux.waitFor("#420 The Careful Lichen", "q quit")
            try await tmux.resize(width: 60, height: 20)
            // The footer moves to the new last row.
            _ = try await tmux.waitFor("#420 The Careful Lichen")
            let rows = try await tmux.capture().components(separatedBy: "\n")
            #expect(rows.count >= 20 && rows[19].contains("previous"), "\(rows)")
            try await tmux.send(keys: "q")
            try await Self.expectRestored(tmux)
        }
    }

    /// A locale that cannot show UTF-8 (LANG=C): arrows, dots and stars are
    /// drawn in ASCII, and no byte beyond ASCII reaches the terminal.
    @Test func theCLocaleGetsASCII() async throws {
        let comics = try ComicsProgram.url()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let command = try Self.script(
            running: comics, "--data-dir", scratch.path("data").path, locale: "C", scratch: scratch)
        try await TmuxSession.with(running: command, width: Self.width, height: Self.height, scratch: scratch.url) {
            tmux in
            try await tmux.waitFor("Oak Comics - comics", "#420 The Careful Lichen", "</p previous")
            try await tmux.send(keys: "g", "7", "Enter")
            let screen = try await tmux.waitFor("#7 Cafe Creme")
            #expect(screen.unicodeScalars.allSatisfy { $0.isASCII }, "\(screen)")
            try await tmux.send(keys: "q")
            try await Self.expectRestored(tmux)
        }
    }

    /// A terminal that cannot place the cursor (TERM=dumb): the program
    /// says so and ends with 1, the terminal as it was.
    @Test func aDumbTerminalIsRefusedWithAMessage() async throws {
        let comics = try ComicsProgram.url()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let command = try Self.script(
            running: comics, "--data-dir", scratch.path("data").path, terminal: "dumb", scratch: scratch)
        try await TmuxSession.with(running: command, width: Self.width, height: Self.height, scratch: scratch.url) {
            tmux in
            let screen = try await tmux.waitFor("EXITED ", "TTY ")
            #expect(screen.contains("EXITED 1"), "\(screen)")
            #expect(screen.contains("cannot place the cursor"), "\(screen)")
        }
    }

    /// With its output piped (`comics | less`) and a terminal for input,
    /// the program prints the latest comic as text and ends: it does not
    /// take over the screen nor wait for keys.
    @Test func pipedOutputPrintsTextInATerminal() async throws {
        let comics = try ComicsProgram.url()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let data = scratch.path("data")
        let command = try Self.script(running: comics, "--data-dir", data.path, pipeOutput: true, scratch: scratch)

        try await TmuxSession.with(
            running: command, width: Self.width, height: Self.height, scratch: scratch.url
        ) { tmux in
            let screen = try await tmux.waitFor("TTY ")
            #expect(screen.contains("#420: The Careful Lichen\n"), "\(screen)")
            #expect(!screen.contains("Oak Comics · comics"), "the full-screen app started:\n\(screen)")
            try await Self.expectRestored(tmux)
        }
    }

    /// The command line of a script that runs `program` (see
    /// ``BuiltProgram/script(running:_:pipeOutput:locale:terminal:scratch:)``).
    static func script(
        running program: URL, _ arguments: String..., pipeOutput: Bool = false, locale: String? = nil,
        terminal: String? = nil, scratch: ScratchDirectory
    ) throws -> String {
        try BuiltProgram.script(
            running: program, arguments, pipeOutput: pipeOutput, locale: locale, terminal: terminal, scratch: scratch)
    }

    /// #13's title is drawn as "Red Alert", its alt text as plain text:
    /// none of their escape sequences reaches the terminal.
    static func expectDrawnHarmlessly(_ tmux: TmuxSession) async throws {
        let screen = try await tmux.capture()
        let rows = screen.components(separatedBy: "\n")
        #expect(rows.contains("#13 Red Alert"), "the title row:\n\(screen)")
        #expect(!screen.contains("pwned") && !screen.contains("]0;"), "the title's OSC shows:\n\(screen)")
        // A clear screen (ESC [2J ESC [H) would have blanked the header and
        // footer behind ncurses's back; a carriage return or backspace
        // would have overwritten the alt text's row.
        #expect(rows.first?.hasPrefix("Oak Comics · comics") == true, "the header row:\n\(screen)")
        #expect(rows.count > height && rows[height - 1].contains("q quit"), "the footer row:\n\(screen)")
        #expect(
            rows.contains { $0.hasPrefix("Blinking text, a bell") && $0.hasSuffix("hide in here.") },
            "the alt text's row:\n\(screen)")

        // With the attributes: no OSC, no red title, no blinking alt text.
        let styled = try await tmux.capture(escapes: true)
        #expect(!styled.contains("\u{1B}]") && !styled.contains("pwned"), "an OSC sequence reached the pane")
        let styledRows = styled.components(separatedBy: "\n")
        let titleRow = styledRows.first { $0.contains("Red Alert") } ?? ""
        let altRow = styledRows.first { $0.contains("Blinking") } ?? ""
        #expect(!sgrParameters(titleRow).contains(31), "the title is red: \(titleRow.debugDescription)")
        #expect(!sgrParameters(altRow).contains(5), "the alt text blinks: \(altRow.debugDescription)")

        // Nor did the title set the window's title, nor the alt text ring.
        let title = try await tmux.display("#{pane_title}")
        #expect(!title.contains("pwned"), "the pane's title is \(title.debugDescription)")
        let bell = try await tmux.display("#{window_bell_flag}")
        #expect(bell == "0", "the alt text's BEL rang the terminal's bell")
    }

    /// After the program: it exited with 0, and the shell's line discipline
    /// is back (canonical, echoing), and so are the main screen, the cursor
    /// and the cursor keys.
    static func expectRestored(_ tmux: TmuxSession) async throws {
        let screen = try await tmux.waitFor("EXITED ", "TTY ")
        #expect(screen.contains("EXITED 0\n"), "\(screen)")
        let modes = screen.components(separatedBy: "\n").first { $0.hasPrefix("TTY ") }
        let flags = Set(modes?.split(separator: " ").dropFirst().map(String.init) ?? [])
        #expect(flags == ["icanon", "echo"], "the terminal's modes after the program: \(modes ?? screen)")
        let state = try await tmux.display("#{alternate_on} #{cursor_flag} #{keypad_cursor_flag}")
        #expect(state == "0 1 0", "alternate screen, cursor shown, cursor keys' mode: \(state)")
    }

    /// The numbers of the SGR sequences (ESC [ … m) in `row`, without the
    /// colour numbers of 38/48;5;n and 38/48;2;r;g;b.
    static func sgrParameters(_ row: String) -> Set<Int> {
        var found: Set<Int> = []
        for match in row.matches(of: /\u{1B}\[([0-9;]*)m/) {
            var numbers = match.1.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[...]
            while let number = numbers.popFirst() {
                found.insert(number)
                if number == 38 || number == 48 {
                    let kind = numbers.popFirst()
                    numbers = numbers.dropFirst(kind == 2 ? 3 : 1)
                }
            }
        }
        return found
    }
}
