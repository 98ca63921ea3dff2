// The browser tests' driver leaves nothing behind: chromedriver and the
// browsers it starts end with the test, whichever way the driver ends, and
// the browser's profile goes with them.

import Foundation
import Testing

@testable import WebTesting

@Suite("WebDriver leaves nothing behind", .needsChromium, .timeLimit(.minutes(1)))
struct WebDriverTests {
    @Test func quittingEndsTheDriverAndItsBrowserAndRemovesTheProfile() async throws {
        let driver = try await WebDriver.start()
        try await driver.open("about:blank")
        #expect(Self.members(of: driver.group) >= 3, "the watchdog, chromedriver and the browser")
        #expect(FileManager.default.fileExists(atPath: driver.profile))
        await driver.quit()
        #expect(await Self.untilEnded(driver.group))
        #expect(!FileManager.default.fileExists(atPath: driver.profile))
    }

    @Test func aDriverDroppedWithoutQuittingEndsToo() async throws {
        var group: pid_t = 0
        var profile = ""
        do {
            let driver = try await WebDriver.start()
            try await driver.open("about:blank")
            (group, profile) = (driver.group, driver.profile)
            #expect(Self.members(of: group) >= 3)
        }
        #expect(await Self.untilEnded(group))
        #expect(!FileManager.default.fileExists(atPath: profile))
    }

    /// The processes of `group` that have not ended (zombies not counted).
    static func members(of group: pid_t) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { entry in
            guard Int(entry) != nil,
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            // After the command's closing parenthesis: state, ppid, pgrp.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && fields[0] != "Z" && fields[2] == "\(group)"
        }.count
    }

    /// Whether every process of `group` has ended within ten seconds.
    /// Another process's end sends this one nothing: it is looked for.
    static func untilEnded(_ group: pid_t) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while members(of: group) > 0 {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}
