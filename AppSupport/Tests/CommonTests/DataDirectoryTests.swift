import Common
import Foundation
import Testing

@Suite("Data directory")
struct DataDirectoryTests {
    @Test func theOverrideWins() {
        let environment = ["XDG_DATA_HOME": "/xdg", "HOME": "/home/ann"]
        #expect(
            DataDirectory.resolve(named: "oak-comics", override: "/srv/comics", environment: environment).path
                == "/srv/comics")
    }

    @Test func aRelativeOverrideIsTakenFromTheCurrentDirectory() {
        let current = FileManager.default.currentDirectoryPath
        let resolved = DataDirectory.resolve(named: "oak-comics", override: "comics-data", environment: [:])
        #expect(resolved.path == URL(fileURLWithPath: current).appendingPathComponent("comics-data").path)
    }

    #if os(Linux)
    @Test func anEmptyOverrideIsNoOverride() {
        #expect(
            DataDirectory.resolve(named: "oak-comics", override: "", environment: ["HOME": "/home/ann"]).path
                == "/home/ann/.local/share/oak-comics")
    }

    @Test func anAbsoluteXDGDataHomeIsUsed() {
        let environment = ["XDG_DATA_HOME": "/xdg/data", "HOME": "/home/ann"]
        #expect(
            DataDirectory.resolve(named: "oak-comics", override: nil, environment: environment).path
                == "/xdg/data/oak-comics")
    }

    @Test(arguments: ["", "relative/data", "~/data"])
    func anXDGDataHomeThatIsNotAbsoluteIsIgnored(dataHome: String) {
        let environment = ["XDG_DATA_HOME": dataHome, "HOME": "/home/ann"]
        #expect(
            DataDirectory.resolve(named: "oak-comics", override: nil, environment: environment).path
                == "/home/ann/.local/share/oak-comics")
    }

    @Test func withoutXDGDataHomeTheHomeIsUsed() {
        #expect(
            DataDirectory.resolve(named: "oak-comics", override: nil, environment: ["HOME": "/home/ann"]).path
                == "/home/ann/.local/share/oak-comics")
    }

    @Test func withoutHomeTheUsersHomeIsUsed() {
        let resolved = DataDirectory.resolve(named: "oak-comics", override: nil, environment: [:])
        #expect(resolved.path.hasPrefix("/"))
        #expect(resolved.path.hasSuffix("/.local/share/oak-comics"))
    }
    #endif

    #if canImport(Darwin)
    @Test func applicationSupportIsUsed() {
        let environment = ["XDG_DATA_HOME": "/xdg/data", "HOME": "/home/ann"]
        #expect(
            DataDirectory.resolve(named: "oak-comics", override: nil, environment: environment).path.hasSuffix(
                "/Application Support/oak-comics"))
    }
    #endif
}
