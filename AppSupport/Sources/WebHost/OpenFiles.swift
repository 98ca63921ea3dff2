// A server's open-files limit: each browser with its page open holds a
// connection, so a soft limit of 1,024 would cap a server at fewer sessions
// than its `--max-sessions`.

#if canImport(Glibc)
import Glibc
#endif

/// The process's limits a web server needs raised.
public enum ProcessLimits {
    /// Raises the process's limit of open files to the most it may have
    /// (its hard limit). Does nothing where the limit cannot be read.
    public static func allowMostOpenFiles() {
        #if canImport(Glibc)
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        #endif
    }
}
