// What the inspector knows: the apps that connected, each one's entries
// (bounded: the oldest go), and the pages watching, each told every app and
// entry as it comes.

import DequeModule
import Foundation
import OakInspector

/// The apps an inspector has heard from and what their runs did, for the
/// pages that watch them.
public actor InspectorHub {
    /// An app that connected: its name and process, and whether it is
    /// connected now.
    public struct App: Codable, Hashable, Sendable {
        /// Numbers the apps from 1, in the order they first connected.
        public var id: Int
        /// The name it gave (`comics`).
        public var name: String
        /// Its process id.
        public var pid: Int32
        /// Whether its link is open now.
        public var isConnected: Bool
    }

    /// What a page is sent: an app (new, or connected or gone), or entries
    /// of an app. One JSON object a WebSocket message.
    public struct Message: Codable, Hashable, Sendable {
        /// `app` or `entries`.
        public var kind: String
        /// The app (`app`).
        public var app: App?
        /// The app the entries are of (`entries`).
        public var of: Int?
        /// The entries (`entries`).
        public var entries: [InspectorEntry]?
    }

    /// The most entries kept an app; the oldest go first.
    public let capacity: Int
    /// The most bytes of text kept an app (states, events, outputs, their JSON); the
    /// oldest entries go first.
    public let byteCapacity: Int
    /// The most apps remembered; the one gone longest is forgotten first.
    public let appCapacity: Int
    private var apps: [Int: App] = [:]
    private var entries: [Int: Deque<InspectorEntry>] = [:]
    private var bytes: [Int: Int] = [:]
    /// The apps that disconnected, the longest gone first.
    private var gone: [Int] = []
    private var nextApp = 0
    private var viewers: [Int: AsyncStream<Message>.Continuation] = [:]
    private var nextViewer = 0
    /// Lines an app sent that were not entries.
    public private(set) var unreadableLines = 0

    /// A hub keeping at most `capacity` entries and `byteCapacity` bytes
    /// of text an app, and at most `appCapacity` apps.
    public init(capacity: Int = 200_000, byteCapacity: Int = 256 << 20, appCapacity: Int = 64) {
        self.capacity = max(1, capacity)
        self.byteCapacity = max(1, byteCapacity)
        self.appCapacity = max(1, appCapacity)
    }

    /// An app connected (again: the same name and process is the same
    /// app); `nil` when ``appCapacity`` apps are connected.
    public func connect(_ hello: InspectorHello) -> Int? {
        let name = String(hello.app.prefix(64))
        let known = apps.values.first { $0.name == name && $0.pid == hello.pid }?.id
        guard known != nil || apps.count < appCapacity || !gone.isEmpty else { return nil }
        let id = known ?? nextApp + 1
        nextApp = max(nextApp, id)
        let app = App(id: id, name: name, pid: hello.pid, isConnected: true)
        apps[id] = app
        gone.removeAll { $0 == id }
        forgetAppsGoneLongest()
        broadcast(Message(kind: "app", app: app))
        return id
    }

    /// Makes room for the apps beyond ``appCapacity``: the app gone longest
    /// is forgotten first.
    private func forgetAppsGoneLongest() {
        while apps.count > appCapacity, let oldest = gone.first {
            gone.removeFirst()
            apps[oldest] = nil
            entries[oldest] = nil
            bytes[oldest] = nil
        }
    }

    /// Adds `received` to app `id`'s entries; the oldest go beyond
    /// ``capacity`` entries or ``byteCapacity`` bytes.
    private func keep(_ received: [InspectorEntry], for id: Int) {
        var kept = entries[id] ?? Deque()
        var size = bytes[id] ?? 0
        for entry in received { size += Self.size(of: entry) }
        kept.append(contentsOf: received)
        while kept.count > capacity || size > byteCapacity, let oldest = kept.popFirst() {
            size -= Self.size(of: oldest)
        }
        entries[id] = kept
        bytes[id] = size
    }

    /// Shows `recording` as an app of its own, not connected (pid 0),
    /// named by its title; the oldest entries go beyond ``capacity``.
    /// - Returns: The app's id, for the page's `#APP/RUN/STEP`.
    public func load(_ recording: InspectorRecording) -> Int {
        nextApp += 1
        let id = nextApp
        let app = App(id: id, name: String(recording.title.prefix(200)), pid: 0, isConnected: false)
        apps[id] = app
        forgetAppsGoneLongest()
        gone.append(id)
        keep(recording.entries, for: id)
        broadcast(Message(kind: "app", app: app))
        broadcast(Message(kind: "entries", of: id, entries: Array(entries[id] ?? [])))
        return id
    }

    /// The app's link closed.
    public func disconnect(_ id: Int) {
        guard var app = apps[id] else { return }
        app.isConnected = false
        apps[id] = app
        gone.append(id)
        broadcast(Message(kind: "app", app: app))
    }

    /// A message of JSON lines from app `id`: each line an entry.
    public func receive(_ lines: String, from id: Int) {
        guard apps[id] != nil else { return }
        let decoder = JSONDecoder()
        var received: [InspectorEntry] = []
        for line in lines.split(separator: "\n") {
            guard let entry = try? decoder.decode(InspectorEntry.self, from: Data(line.utf8)) else {
                unreadableLines += 1
                continue
            }
            received.append(entry)
        }
        guard !received.isEmpty else { return }
        keep(received, for: id)
        broadcast(Message(kind: "entries", of: id, entries: received))
    }

    /// About the bytes an entry's text takes.
    private static func size(of entry: InspectorEntry) -> Int {
        (entry.state?.utf8.count ?? 0) + (entry.text?.utf8.count ?? 0) + (entry.type?.utf8.count ?? 0)
            + (entry.json?.utf8.count ?? 0) + 64
    }

    /// What a page is told: every app and every entry kept, then each as it
    /// comes. A page that reads slowly loses the oldest of what waits for
    /// it beyond `buffer` messages.
    /// - Returns: The messages, and the viewer to give ``stopWatching(_:)``.
    public func watch(buffer: Int = 10_000) -> (AsyncStream<Message>, viewer: Int) {
        let (stream, continuation) = AsyncStream<Message>.makeStream(bufferingPolicy: .bufferingNewest(buffer))
        for app in apps.values.sorted(by: { $0.id < $1.id }) {
            continuation.yield(Message(kind: "app", app: app))
            let kept = Array(entries[app.id] ?? [])
            // In messages of at most 2,000 entries.
            for start in stride(from: 0, to: kept.count, by: 2_000) {
                let slice = Array(kept[start..<min(kept.count, start + 2_000)])
                continuation.yield(Message(kind: "entries", of: app.id, entries: slice))
            }
        }
        nextViewer += 1
        let viewer = nextViewer
        viewers[viewer] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.stopWatching(viewer) }
        }
        return (stream, viewer)
    }

    /// Ends the messages of `viewer` (its page went).
    public func stopWatching(_ viewer: Int) {
        viewers.removeValue(forKey: viewer)?.finish()
    }

    /// The apps, by id.
    public var knownApps: [App] { apps.values.sorted { $0.id < $1.id } }

    /// The entries kept of app `id`.
    public func entries(of id: Int) -> [InspectorEntry] { Array(entries[id] ?? []) }

    private func broadcast(_ message: Message) {
        for viewer in viewers.values { viewer.yield(message) }
    }
}
