// The link from an app to `oak-inspector`: a hello with the token, then the
// runs' entries as JSON lines; made again when the inspector drops it, with
// the runs going on told first; only to a loopback address.

import Foundation
import Oak
import OakInspector
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("The link to the inspector", .timeLimit(.minutes(1)))
struct InspectorLinkTests {
    @Test func itSaysHelloWithTheTokenThenSendsTheEntries() async throws {
        let listener = try TestListener()
        defer { listener.stop() }
        let inspector = LiveInspector()
        let link = InspectorLink(
            inspector, to: try InspectorEndpoint(host: "127.0.0.1", port: listener.port, token: "t0ken"), app: "tally",
            retryDelay: .milliseconds(20))
        link.start()
        defer { link.stop() }

        let proxy = Tally.Proxy()
        try proxy.send(.add(3))
        try proxy.send(.fail)
        await #expect(throws: Tally.Broke.self) {
            try await TransducerInspection.$inspector.withValue(inspector) {
                _ = try await Tally.run(initialState: Tally.State(), proxy: proxy, env: Tally.Env())
            }
        }
        let lines = try await listener.lines(until: { $0.contains("\"kind\":\"ended\"") })
        #expect(listener.upgradeRequests.first?.hasPrefix("GET /apps?token=t0ken HTTP/1.1") == true)
        let hello = try JSONDecoder().decode([String: InspectorHello].self, from: Data(try #require(lines.first).utf8))
        #expect(hello["hello"]?.token == "t0ken")
        #expect(hello["hello"]?.app == "tally")
        #expect(hello["hello"]?.pid == getpid())
        let entries = try lines.dropFirst().map { try JSONDecoder().decode(InspectorEntry.self, from: Data($0.utf8)) }
        #expect(entries.first?.kind == .started)
        #expect(entries.contains { $0.kind == .event && $0.text == "add(3)" })
        #expect(entries.last?.kind == .ended)
    }

    @Test func aDroppedLinkIsMadeAgainAndToldTheRunsGoingOn() async throws {
        let listener = try TestListener()
        defer { listener.stop() }
        let inspector = LiveInspector()
        let link = InspectorLink(
            inspector, to: try InspectorEndpoint(host: "127.0.0.1", port: listener.port, token: "abc"), app: "tally",
            retryDelay: .milliseconds(20))
        link.start()
        defer { link.stop() }

        let proxy = Tally.Proxy()
        let run = Tally.start(inspectedBy: inspector, proxy: proxy)
        try proxy.send(.add(5))
        _ = try await listener.lines(until: { $0.contains("\"kind\":\"waiting\"") })

        // The inspector drops the connection; the link makes another.
        listener.dropConnection()
        let again = try await listener.lines(until: { $0.contains("\"kind\":\"running\"") })
        #expect(again.first?.contains("\"hello\"") == true)
        let running = try #require(
            again.compactMap { try? JSONDecoder().decode(InspectorEntry.self, from: Data($0.utf8)) }.first {
                $0.kind == .running
            })
        #expect(running.type?.hasSuffix("Tally") == true)
        #expect(running.state?.contains("count: 5") == true)
        #expect(link.connections >= 2)

        try proxy.send(.add(1))
        let after = try await listener.lines(until: { $0.contains("add(1)") })
        #expect(after.contains { $0.contains("add(1)") })
        proxy.cancel()
        _ = try? await run.value
    }

    @Test func aDiscoveringLinkFindsAnInspectorRestartedElsewhere() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oak-link-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["XDG_STATE_HOME": directory.path, "HOME": "/nonexistent"]
        let file = InspectorEndpoint.file(environment: environment)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let first = try TestListener()
        defer { first.stop() }
        try Data("oak://first@127.0.0.1:\(first.port)\n".utf8).write(to: file)
        let inspector = LiveInspector()
        let link = try InspectorLink(
            discovering: inspector, app: "tally", environment: environment, retryDelay: .milliseconds(20))
        link.start()
        defer { link.stop() }
        let proxy = Tally.Proxy()
        let run = Tally.start(inspectedBy: inspector, proxy: proxy)
        try proxy.send(.add(2))
        _ = try await first.lines(until: { $0.contains("add(2)") })

        // The inspector stops; another starts on another port, with another
        // token, and says so in the file.
        let second = try TestListener()
        defer { second.stop() }
        try Data("oak://second@127.0.0.1:\(second.port)\n".utf8).write(to: file)
        first.stop()
        let again = try await second.lines(until: { $0.contains("\"kind\":\"running\"") })
        #expect(second.upgradeRequests.first?.hasPrefix("GET /apps?token=second HTTP/1.1") == true)
        #expect(again.contains { $0.contains("count: 2") })
        proxy.cancel()
        _ = try? await run.value
    }

    /// The listener's wait ends when the test is cancelled (as its time
    /// limit does), before or after it began waiting: a line that never
    /// comes fails the test instead of hanging the run.
    @Test func aWaitForALineEndsWhenTheTestIsCancelled() async throws {
        let listener = try TestListener()
        defer { listener.stop() }
        let before = Task { try await listener.lines(until: { _ in true }) }
        before.cancel()
        await #expect(throws: TestListener.NoSuchLine.self) { try await before.value }
        let after = Task { try await listener.lines(until: { _ in true }) }
        await Task.yield()
        after.cancel()
        await #expect(throws: TestListener.NoSuchLine.self) { try await after.value }
    }

    @Test func onlyALoopbackAddressIsTaken() throws {
        #expect(throws: InspectorEndpointError.notLoopback("10.0.0.2")) {
            try InspectorEndpoint(parsing: "oak://abc@10.0.0.2:7700")
        }
        #expect(throws: InspectorEndpointError.unreadable("127.0.0.1:7700")) {
            try InspectorEndpoint(parsing: "127.0.0.1:7700")
        }
        #expect(throws: InspectorEndpointError.badToken) {
            try InspectorEndpoint(parsing: "oak://a%20b@127.0.0.1:7700")
        }
        let endpoint = try InspectorEndpoint(parsing: "oak://abc123@127.0.0.1:7700\n")
        #expect(endpoint == (try InspectorEndpoint(host: "127.0.0.1", port: 7700, token: "abc123")))
        #expect(endpoint.description == "oak://abc123@127.0.0.1:7700")
    }

    @Test func theRunningInspectorIsFoundInItsFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oak-link-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["XDG_STATE_HOME": directory.path, "HOME": "/nonexistent"]
        #expect(throws: InspectorEndpointError.noneRunning(InspectorEndpoint.file(environment: environment).path)) {
            try InspectorEndpoint.discovered(environment: environment)
        }
        let file = InspectorEndpoint.file(environment: environment)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("oak://k3y@127.0.0.1:7701\n".utf8).write(to: file)
        #expect(try InspectorEndpoint.discovered(environment: environment).port == 7701)
    }
}

/// A TCP listener on 127.0.0.1 standing for `oak-inspector`: accepts one
/// connection at a time on a thread of its own and hands its lines over.
///
/// Only that thread closes the descriptors it works on (``stop()`` and
/// ``dropConnection()`` shut them down, under the lock, while they are
/// open): a descriptor closed under another thread is soon another test's
/// socket, and this listener once accepted, and shut down, a later test's
/// connections that way (the test waited for good).
final class TestListener: @unchecked Sendable {
    // Safety: every `var` only under `lock`; the rest is set once in `init`.
    let port: UInt16
    private let socket: Int32
    private let lock = NSLock()
    private var isStopped = false
    private var connection: Int32 = -1
    private var received: [String] = []
    private var requests: [String] = []
    private var waiter: (predicate: (String) -> Bool, continuation: CheckedContinuation<[String], Never>)?

    /// No line of the connection matched before the test was cancelled;
    /// `received` is what came.
    struct NoSuchLine: Error, CustomStringConvertible {
        let received: [String]
        var description: String { "no line matched; received: \(received)" }
    }

    /// The heads of the upgrade requests received.
    var upgradeRequests: [String] { lock.withLock { requests } }

    private static func range(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle }
    }

    /// The payload of the first whole frame in `bytes` (a client's: masked)
    /// and how many bytes it took.
    private static func frame(in bytes: [UInt8]) -> ([UInt8], Int)? {
        guard bytes.count >= 2 else { return nil }
        var length = Int(bytes[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = Int(bytes[2]) << 8 | Int(bytes[3])
            offset = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        guard bytes.count >= offset + 4 + length else { return nil }
        let key = Array(bytes[offset..<(offset + 4)])
        let payload = bytes[(offset + 4)..<(offset + 4 + length)].enumerated().map { $0.element ^ key[$0.offset & 3] }
        return (payload, offset + 4 + length)
    }

    init() throws {
        let listening = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listening, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listening, 4) == 0 else {
            close(listening)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &length) }
        }
        socket = listening
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in acceptLoop() }.start()
    }

    /// Stops listening and drops the connection: the accepting thread
    /// closes both and ends. Again does nothing.
    func stop() {
        lock.withLock {
            guard !isStopped else { return }
            isStopped = true
            // On Linux a listening socket shut down wakes `accept` with an error.
            _ = shutdown(socket, Int32(SHUT_RDWR))
            if connection >= 0 { _ = shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        defer { close(socket) }
        while true {
            let accepted = accept(socket, nil, nil)
            if accepted < 0, errno == EINTR { continue }
            guard accepted >= 0 else { return }
            let stopped = lock.withLock {
                guard !isStopped else { return true }
                connection = accepted
                received = []
                return false
            }
            if stopped {
                close(accepted)
                return
            }
            receive(on: accepted)
            lock.withLock {
                connection = -1
                close(accepted)
            }
        }
    }

    /// Answers the upgrade request, then hands over the lines of the
    /// connection's messages until it ends.
    private func receive(on accepted: Int32) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var upgraded = false
        while true {
            let count = recv(accepted, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            pending += buffer[0..<count]
            if !upgraded {
                // The upgrade request: its head, then 101.
                guard let end = Self.range(of: [13, 10, 13, 10], in: pending) else { continue }
                let head = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(..<(end + 4))
                lock.withLock { requests.append(head) }
                let answer = Array(
                    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n".utf8)
                _ = answer.withUnsafeBytes { send(accepted, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                upgraded = true
            }
            // Masked text frames: each message's lines.
            while let (payload, used) = Self.frame(in: pending) {
                pending.removeFirst(used)
                for line in String(decoding: payload, as: UTF8.self).split(separator: "\n") {
                    deliver(String(line))
                }
            }
        }
    }

    private func deliver(_ line: String) {
        let ready: (CheckedContinuation<[String], Never>, [String])? = lock.withLock {
            received.append(line)
            guard let waiter, waiter.predicate(line) else { return nil }
            self.waiter = nil
            return (waiter.continuation, received)
        }
        if let (continuation, lines) = ready { continuation.resume(returning: lines) }
    }

    /// The lines of the current connection, once one matches `predicate`.
    ///
    /// - Throws: ``NoSuchLine`` when the test is cancelled first (as its
    ///   time limit does): a test waiting here fails with what came instead
    ///   of waiting for good.
    func lines(until predicate: @escaping (String) -> Bool) async throws -> [String] {
        let lines = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Under the lock, as in `giveUp()`: a cancellation either
                // finds the waiter there or is seen here.
                let ready: [String]? = lock.withLock {
                    if received.contains(where: predicate) || Task.isCancelled { return received }
                    waiter = (predicate, continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            giveUp()
        }
        guard lines.contains(where: predicate) else { throw NoSuchLine(received: lines) }
        return lines
    }

    /// Ends the wait with the lines so far, if one is on (a listener belongs
    /// to one test, which waits for one thing at a time).
    private func giveUp() {
        let waiting: (CheckedContinuation<[String], Never>, [String])? = lock.withLock {
            guard let waiter else { return nil }
            self.waiter = nil
            return (waiter.continuation, received)
        }
        if let (continuation, lines) = waiting { continuation.resume(returning: lines) }
    }

    /// Closes the current connection, as an inspector that goes away.
    func dropConnection() {
        lock.withLock {
            if connection >= 0 { _ = shutdown(connection, Int32(SHUT_RDWR)) }
            received = []
        }
    }
}
