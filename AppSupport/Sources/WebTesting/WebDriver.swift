// A minimal W3C WebDriver client for the browser test: chromedriver runs
// headless Chromium (Debian's `chromium` and `chromium-driver`), and this
// client sends it the commands a person's clicks would be.

import Dispatch
import Foundation
import Synchronization
import TerminalTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// chromedriver, started on a free port, with one browser session.
///
/// chromedriver and the browsers it starts run in a process group of their
/// own, which ends with ``quit()``, when the driver is dropped, or — should
/// the test process be killed — within a second of it (a watchdog in the
/// group), so that no test leaves a driver or a browser behind; the
/// browser's profile directory goes with it.
public final class WebDriver: @unchecked Sendable {
    // Safety: the test drives it from one task.
    private let process: Process
    private let port: Int
    /// The process group of chromedriver and the browsers it starts.
    let group: pid_t
    /// The browser's profile, removed when the driver ends.
    let profile: String
    private var sessionID = ""
    private let ended = Mutex(false)

    /// Whether the browser tests run: Chromium and chromedriver are
    /// installed, or on CI (`CI=true`), where they must be and the tests
    /// fail saying so.
    public static var shouldRun: Bool {
        executables != nil || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    /// The CSS selector of the button that posts the key `key`: the button
    /// of the form whose hidden `intent` field is the key, or a button that
    /// posts it itself (`name="intent"`) in a form with several.
    public static func intentButton(_ key: String) -> String {
        "form.intent:has(input[name=\"intent\"][value=\"\(key)\"]) button, "
            + "button[name=\"intent\"][value=\"\(key)\"]"
    }

    /// Saves a test's artefact (a screenshot) as `name` in
    /// `$OAK_ARTIFACTS_DIR`, else in the `.build/artifacts` of the package
    /// whose test file (`Tests/<Target>/<File>.swift`) calls it.
    public static func saveArtifact(_ data: Data, as name: String, calledFrom filePath: String = #filePath) throws {
        let directory =
            ProcessInfo.processInfo.environment["OAK_ARTIFACTS_DIR"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/artifacts")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try data.write(to: directory.appendingPathComponent(name))
    }

    /// Where chromedriver and Chromium are, if installed.
    public static var executables: (driver: String, browser: String)? {
        let driver = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        let browser = ["/usr/bin/chromium", "/usr/lib/chromium/chromium"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let driver, let browser else { return nil }
        return (driver, browser)
    }

    /// The browser's arguments for a microphone that plays the WAV file at
    /// `path` (once, then silence), or Chromium's beeps without one, and is
    /// granted without asking.
    public static func fakeMicrophone(playing path: String? = nil) -> [String] {
        ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]
            + (path.map { ["--use-file-for-fake-audio-capture=\($0)%noloop"] } ?? [])
    }

    private init(process: Process, port: Int, group: pid_t, profile: String) {
        self.process = process
        self.port = port
        self.group = group
        self.profile = profile
    }

    deinit { end() }

    /// Ends chromedriver and every browser it started (its whole process
    /// group), and removes the browser's profile; once.
    private func end() {
        let isFirst = ended.withLock { ended in
            defer { ended = true }
            return !ended
        }
        guard isFirst else { return }
        Self.killGroup(group)
        try? FileManager.default.removeItem(atPath: profile)
    }

    /// Kills the process group `group` if its leader is still a watchdog
    /// of this process's. A group that has ended (the watchdog kills it
    /// when chromedriver dies) leaves its number free, and Foundation
    /// makes every process it starts the leader of a group of its own: on
    /// a busy machine (32,768 process numbers) a server another test has
    /// just started can hold the number (the likely end of a server that
    /// vanished in the middle of a CI run).
    static func killGroup(_ group: pid_t) {
        guard group > 1, isWatchdog(group) else { return }
        kill(-group, SIGKILL)
    }

    /// Whether process `pid` is a watchdog this process started
    /// (`sh -c … oak-webdriver DRIVER PID`). Where there is no `/proc`,
    /// it is taken to be.
    static func isWatchdog(_ pid: pid_t) -> Bool {
        #if os(Linux)
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return arguments.contains("oak-webdriver") && arguments.last == String(getpid())
        #else
        return true
        #endif
    }

    /// Runs chromedriver (`$1`) in the process group of the shell, which
    /// says its number first, and ends the whole group — chromedriver and
    /// the browsers it started — once the test process (`$2`) or
    /// chromedriver is gone. Started through `setsid`: a group of its own.
    private static let watchdog = """
        echo "group $$"
        "$1" --port=0 --allowed-ips=127.0.0.1 &
        driver=$!
        while kill -0 "$2" 2>/dev/null && kill -0 "$driver" 2>/dev/null; do sleep 1; done
        kill -KILL 0
        """

    /// Starts chromedriver and a headless browser session, the browser
    /// started with `arguments` beyond the host's own (such as
    /// ``fakeMicrophone(playing:)``).
    public static func start(
        width: Int = 1000, height: Int = 1200, arguments: [String] = []
    ) async throws
        -> WebDriver
    {
        guard let (driverPath, browserPath) = executables else { throw WebDriverError.notInstalled }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        // Port 0: chromedriver takes a free port and says which
        // ("… started successfully on port N."), once it is ready.
        process.arguments = ["/bin/sh", "-c", watchdog, "oak-webdriver", driverPath, String(getpid())]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        // Read on a thread of its own, not by a readability handler (see
        // `PipeReader`); what it says after it started is dropped.
        let (lines, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
        PipeReader.start(output.fileHandleForReading) { data in
            continuation.yield(String(decoding: data, as: UTF8.self))
        } onEnd: {
            continuation.finish()
        }
        try process.run()
        var said = ""
        var port: Int?
        var group: pid_t = 0
        for await chunk in lines {
            said += chunk
            if group == 0, let range = said.range(of: "group ") {
                group = pid_t(said[range.upperBound...].prefix { $0.isNumber }) ?? 0
            }
            if let range = said.range(of: "started successfully on port ") {
                let digits = said[range.upperBound...].prefix { $0.isNumber }
                port = Int(digits)
                if port != nil, said[range.upperBound...].dropFirst(digits.count).hasPrefix(".") { break }
            }
        }
        // From now on its output is read and dropped, so that it never blocks.
        continuation.finish()
        let profile = "/tmp/oak-chromium-\(UUID().uuidString)"
        guard let port, group > 1 else {
            killGroup(group)
            process.terminate()
            throw WebDriverError.driverDidNotStart(said)
        }
        let driver = WebDriver(process: process, port: port, group: group, profile: profile)
        let capabilities: [String: Any] = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "goog:chromeOptions": [
                        "binary": browserPath,
                        "args": [
                            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--window-size=\(width),\(height)",
                            "--user-data-dir=\(profile)",
                        ] + arguments,
                    ],
                ]
            ]
        ]
        do {
            let response = try await driver.command("POST", "/session", capabilities)
            guard let value = response["value"] as? [String: Any], let id = value["sessionId"] as? String else {
                throw WebDriverError.unexpected("\(response)")
            }
            driver.sessionID = id
            _ = try await driver.command("POST", "/session/\(id)/timeouts", ["script": 30_000, "implicit": 20_000])
            return driver
        } catch {
            driver.end()
            throw error
        }
    }

    /// Ends the browser session and chromedriver.
    public func quit() async {
        _ = try? await command("DELETE", "/session/\(sessionID)")
        // The group is killed, not waited for: the tests that need it gone
        // wait for that themselves.
        end()
    }

    /// Loads `url` in the browser.
    public func open(_ url: String) async throws {
        _ = try await command("POST", "/session/\(sessionID)/url", ["url": url])
    }

    /// The text of the element matching `css`, once there is one (read in
    /// one script in the page, like ``click(_:)``).
    public func text(_ css: String) async throws -> String {
        let selector = String(decoding: try JSONEncoder().encode(css), as: UTF8.self)
        try await waitUntil("document.querySelector(\(selector)) !== null")
        let text = try await run("return document.querySelector(args[0])?.innerText ?? null;", [css])
        guard let text = text as? String else { throw WebDriverError.unexpected("no text at \(css)") }
        return text
    }

    /// Clicks the element matching `css`, once there is one. Found and
    /// clicked in one script in the page: the server replaces the page's
    /// content with every state it pushes, so an element reference fetched
    /// by one command can be stale by the next.
    public func click(_ css: String) async throws {
        let selector = String(decoding: try JSONEncoder().encode(css), as: UTF8.self)
        try await waitUntil("document.querySelector(\(selector)) !== null")
        let clicked = try await run(
            "const element = document.querySelector(args[0]); if (!element) { return false; } element.click(); return true;",
            [css])
        guard clicked as? Bool == true else { throw WebDriverError.unexpected("nothing to click at \(css)") }
    }

    /// Types `text` into the element matching `css`, once there is one, as
    /// a person does: key by key, with the browser's own events (`"\u{E007}"`
    /// is Enter, which submits a form with its default button).
    public func type(_ text: String, into css: String) async throws {
        let selector = String(decoding: try JSONEncoder().encode(css), as: UTF8.self)
        try await waitUntil("document.querySelector(\(selector)) !== null")
        let found = try await command(
            "POST", "/session/\(sessionID)/element", ["using": "css selector", "value": css])
        guard let reference = found["value"] as? [String: Any],
            let element = reference["element-6066-11e4-a52e-4f735466cecf"] as? String
        else { throw WebDriverError.unexpected("no element at \(css): \(found)") }
        _ = try await command("POST", "/session/\(sessionID)/element/\(element)/value", ["text": text])
    }

    /// Runs `script` (an async function body; `arguments` are passed) in
    /// the page and returns what its promise resolves to.
    public func run(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
        let wrapped =
            "const done = arguments[arguments.length - 1];"
            + "(async (...args) => { \(script) })(...Array.from(arguments).slice(0, -1))"
            + ".then(done, (error) => done({ error: String(error) }));"
        let response = try await command(
            "POST", "/session/\(sessionID)/execute/async", ["script": wrapped, "args": arguments])
        return response["value"]
    }

    /// Waits, in the page, until `condition` (a JavaScript expression) is
    /// true: checked on every change of the DOM, without polling.
    public func waitUntil(_ condition: String) async throws {
        let result = try await run(
            """
            const ok = () => { try { return Boolean(\(condition)); } catch (e) { return false; } };
            if (ok()) { return true; }
            await new Promise((resolve) => {
              const observer = new MutationObserver(() => { if (ok()) { observer.disconnect(); resolve(); } });
              observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
            });
            return true;
            """)
        guard result as? Bool == true else {
            throw WebDriverError.unexpected("waiting for \(condition): \(String(describing: result))")
        }
    }

    /// A PNG of the viewport.
    public func screenshot() async throws -> Data {
        let response = try await command("GET", "/session/\(sessionID)/screenshot")
        guard let encoded = response["value"] as? String, let data = Data(base64Encoded: encoded) else {
            throw WebDriverError.unexpected("no screenshot")
        }
        return data
    }

    private func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> [String: Any] {
        let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let (status, data) = try await Self.request(method, port: port, path: path, body: payload)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        guard status == 200 else {
            throw WebDriverError.unexpected("\(method) \(path): \(String(decoding: data, as: UTF8.self))")
        }
        return object
    }

    /// One HTTP/1.1 request on a connection of its own, over a plain socket:
    /// chromedriver writes headers without a space after the colon, which
    /// URLSession on Linux refuses ("Failed writing header"). The blocking
    /// calls run on a dispatch queue, not on the tasks' threads.
    private static func request(_ method: String, port: Int, path: String, body: Data?) async throws -> (Int, Data) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try blockingRequest(method, port: port, path: path, body: body) })
            }
        }
    }

    private static func blockingRequest(_ method: String, port: Int, path: String, body: Data?) throws -> (Int, Data) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw WebDriverError.unexpected("socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw WebDriverError.unexpected("connect to port \(port)") }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        head += "\r\n"
        var message = Data(head.utf8)
        if let body { message.append(body) }
        try message.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = send(fd, buffer.baseAddress?.advanced(by: offset), buffer.count - offset, 0)
                guard written > 0 else { throw WebDriverError.unexpected("send") }
                offset += written
            }
        }
        // chromedriver answers "Connection:close" but keeps the connection
        // open: read the headers, then exactly Content-Length bytes.
        var response = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var bodyStart: Int?
        var length = 0
        while bodyStart.map({ response.count - $0 < length }) ?? true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { break }
            response.append(contentsOf: chunk[0..<count])
            if bodyStart == nil, let split = response.range(of: Data("\r\n\r\n".utf8)) {
                bodyStart = split.upperBound - response.startIndex
                let head = String(decoding: response[..<split.lowerBound], as: UTF8.self)
                for line in head.split(separator: "\r\n") {
                    let parts = line.split(separator: ":", maxSplits: 1)
                    if parts.count == 2, parts[0].lowercased() == "content-length" {
                        length = Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
                    }
                }
            }
        }
        guard let bodyStart else { throw WebDriverError.unexpected("no response from chromedriver") }
        let statusLine =
            String(decoding: response.prefix(bodyStart), as: UTF8.self).split(separator: "\r\n").first ?? ""
        let status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, Data(response.dropFirst(bodyStart)))
    }
}

/// Why the browser or its driver failed.
public enum WebDriverError: Error {
    case notInstalled
    case driverDidNotStart(String)
    case unexpected(String)
}

extension Trait where Self == ConditionTrait {
    /// Runs a suite only where Chromium and its driver are installed
    /// (``WebDriver/shouldRun``); elsewhere it is skipped, saying what to
    /// install.
    public static var needsChromium: Self {
        .enabled(
            if: WebDriver.shouldRun, "needs chromium and chromium-driver (apt-get install chromium chromium-driver)")
    }
}
