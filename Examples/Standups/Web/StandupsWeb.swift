// The web front end of the Standups app: the configuration of AppSupport's
// generic web host. Each browser session runs `Main` (its own
// navigation) with the ports the injector built; the stand-ups are shared
// by every session and with the terminal app through the store. Everything
// a page shows and every intent its forms are bound to comes from the
// features' web views. No feature logic here.

import Devices
import Foundation
import Oak
import StandupsIntents
import StandupsMain
import StandupsWebViews
import WebHost
import WebUI

/// The Standups app, as the web host serves it to browsers.
///
/// ```swift
/// let host = try await WebHost.start(app: StandupsWeb(env: env), port: 8080)
/// ```
public struct StandupsWeb: WebApplication {
    /// The features' ports, shared by every session.
    public let environment: Main.Env
    /// The meetings' microphones: what the viewers' browsers send, heard
    /// by the meetings' recognisers (the injector gives both the same).
    public let microphones: RemoteMicrophones
    /// Where each stand-up's meetings run: here, or in another process of
    /// the app serving the same database.
    public let homes: MeetingHomes

    /// The app over the features' ports `env`, its meetings hearing the
    /// browsers through `microphones`, run where `homes` says (here, by
    /// default).
    public init(
        env: Main.Env, microphones: RemoteMicrophones = RemoteMicrophones(), homes: MeetingHomes = .here
    ) {
        environment = env
        self.microphones = microphones
        self.homes = homes
    }

    /// "Oak Standups".
    public var name: String { "Oak Standups" }

    /// The app before it starts.
    public func initialState() -> Main.State { Main.State() }

    /// Loads the stand-ups.
    public func start(_ proxy: Main.Proxy) async {
        await proxy.send(.start)
    }

    /// Loads the stand-ups, then opens the screen `path` names
    /// (``place(at:)``).
    public func start(_ proxy: Main.Proxy, at path: String) async {
        await proxy.send(.start)
        if let place = Self.place(at: path), place != .list { await proxy.send(.openPlace(place)) }
    }

    /// The list, a stand-up, and a stand-up's meeting have addresses.
    public func opens(_ path: String) -> Bool { Self.place(at: path) != nil }

    /// The address of the screen on top.
    public func path(of state: Main.State) -> String { Self.path(of: state.place) }

    /// `/`, `/standups/ID`, `/standups/ID/meeting`.
    public static func path(of place: Main.Place) -> String {
        switch place {
        case .list: "/"
        case .standup(let id): "/standups/\(id.uuidString.lowercased())"
        case .meeting(let id): "/standups/\(id.uuidString.lowercased())/meeting"
        }
    }

    /// The place `path` names, if it names one (``path(of:)``).
    public static func place(at path: String) -> Main.Place? {
        if path == "/" { return .list }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 4, parts[0].isEmpty, parts[1] == "standups",
            let id = UUID(uuidString: String(parts[2]))
        else { return nil }
        if parts.count == 3 { return .standup(id) }
        return parts[3] == "meeting" ? .meeting(of: id) : nil
    }

    /// The stand-ups are loaded (or loading them failed).
    public func isSettled(_ state: Main.State) -> Bool {
        MainWebView.isSettled(state)
    }

    /// The screen on top.
    public func title(of state: Main.State) -> String {
        MainWebView.title(state)
    }

    /// The screen on top, by the features' web views, its forms bound to
    /// the intents of the model of `state`.
    public func content(of state: Main.State, session: WebSessionContext<Main>) -> HTML {
        MainWebView.content(
            state, intents: StandupsIntents(for: state, proxy: session.proxy, current: session.current),
            context: session.forms)
    }

    /// The intents that start or join a stand-up's meeting are performed
    /// in the process its meetings run in: this one, once it has claimed
    /// them, or the one that holds them, where the browser is sent (a
    /// meeting runs in exactly one process).
    public func redirect(for form: WebForm, in state: Main.State) async -> String? {
        guard form.intent == MainWebView.startKey || form.intent == MainWebView.continueKey,
            case .detail(let detail)? = state.top
        else { return nil }
        switch await homes.claim(detail.state.standup.id) {
        case .here:
            return nil
        case .elsewhere(let address):
            // A server is gone to; a terminal app's claim is said on the
            // page (the intent is performed here, and the app says where).
            guard let url = URL(string: address), url.scheme == "http" || url.scheme == "https" else { return nil }
            // Straight into the meeting there.
            let base = address.hasSuffix("/") ? String(address.dropLast()) : address
            return base + Self.path(of: .meeting(of: detail.state.standup.id))
        }
    }

    /// The microphone of a meeting page: while the meeting on top records,
    /// the first viewer to turn theirs on holds the meeting's floor (the
    /// audio the recogniser hears) until they turn it off or leave; others
    /// are refused with the reason. Frames are 16 kHz mono 16-bit PCM.
    public func openStream(
        _ name: String, in state: Main.State, session: WebSessionContext<Main>
    ) -> WebStreamOpening {
        guard name == MainWebView.microphoneStream, case .meeting(let room)? = state.top,
            case let meeting = room.state, meeting.recognition == .listening, meeting.ending == nil
        else { return .failure(.unavailable("Nothing is being recorded on this page.")) }
        let floor: MicrophoneFloor
        do {
            floor = try microphones.takeFloor(of: meeting.standup.id)
        } catch .floorTaken {
            return .failure(.busy(MicrophoneError.floorTaken.description))
        } catch {
            return .failure(.unavailable(error.description))
        }
        return .success(
            WebStream(
                limits: .audio16kHzMono,
                receive: { bytes throws(WebStreamRefusal) in
                    do throws(MicrophoneError) {
                        try floor.send(Self.samples(littleEndian: bytes))
                    } catch {
                        throw .unavailable(error.description)
                    }
                },
                end: { floor.release() }))
    }

    /// 16-bit little-endian samples from their bytes (an even count).
    static func samples(littleEndian bytes: [UInt8]) -> [Int16] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { index in
            Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)
        }
    }

    /// The themes' colours and the screens' rules.
    public var style: String { MainWebView.style }
}
