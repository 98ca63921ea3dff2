// What the tests start ends with them, whichever way they end: a test run
// that crashed or was killed (SIGKILL: no code of its own runs) leaves no
// server holding its port and database, and no tmux server with the app in
// its pane, behind.

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A watchdog process that ends a process the tests started once the tests
/// are gone, and itself ends with that process.
public enum Watchdog {
    /// A watchdog (to start) that sends `signal` (a name: `KILL`, `TERM`)
    /// to the process `watched` once the process `parent` (by default this
    /// one, the tests) is gone, and ends when `watched` ends.
    ///
    /// A process of its own, which Foundation makes the leader of a group
    /// of its own, so that it outlives the tests it watches; it says
    /// `watching` on its standard output (by default nowhere) as it starts
    /// to.
    public static func process(
        ending watched: Int32, with signal: String, onceGone parent: Int32 = getpid()
    )
        -> Process
    {
        let watchdog = Process()
        watchdog.executableURL = URL(fileURLWithPath: "/bin/sh")
        watchdog.arguments = ["-c", script, "oak-watchdog", String(parent), String(watched), signal]
        watchdog.standardInput = FileHandle.nullDevice
        watchdog.standardOutput = FileHandle.nullDevice
        watchdog.standardError = FileHandle.nullDevice
        return watchdog
    }

    /// Watches the tests (`$1`) and the process (`$2`) once a second, and
    /// sends `$3` to the process when the tests are gone. The process is
    /// known by its start time (field 22 of `/proc/PID/stat`; where there
    /// is no `/proc`, as on macOS, what `ps` says of it), so that a number
    /// the system gave another process after it ended is never signalled.
    static let script = """
        started() {
            if [ -d /proc/self ]; then cut -d' ' -f22 "/proc/$1/stat" 2>/dev/null
            else ps -o lstart= -p "$1" 2>/dev/null; fi
        }
        start=$(started "$2")
        [ -n "$start" ] || exit 0
        echo watching
        while kill -0 "$1" 2>/dev/null; do
            [ "$(started "$2")" = "$start" ] || exit 0
            sleep 1
        done
        [ "$(started "$2")" = "$start" ] && kill -"$3" "$2"
        exit 0
        """
}
