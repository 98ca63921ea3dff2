import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file-system calls the store makes itself, through POSIX so that
/// failures come with the system's own words ("Permission denied").
enum FileSystem {
    /// The first bytes of a file, or why they could not be read.
    enum Prefix: Equatable {
        /// No file (nor directory) is at the path.
        case missing
        /// The file could not be opened or read.
        case failed(reason: String)
        /// Up to the bytes asked for: fewer if the file is shorter.
        case read([UInt8])
    }

    /// Reads up to `count` bytes from the start of the file at `path`, without writing anything.
    static func readPrefix(ofFileAtPath path: String, count: Int) -> Prefix {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            let code = errno
            return code == ENOENT ? .missing : .failed(reason: message(code))
        }
        defer { _ = close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result = bytes[filled...].withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if result > 0 {
                filled += result
            } else if result == 0 {
                break
            } else if errno != EINTR {
                return .failed(reason: message(errno))
            }
        }
        return .read(Array(bytes[..<filled]))
    }

    /// Creates the directory at `path` (private to the user, as the XDG
    /// specification asks) unless it exists; never creates its parents.
    static func createDirectory(atPath path: String) throws(PersistenceError) {
        if isDirectory(atPath: path) { return }
        if mkdir(path, 0o700) == 0 { return }
        let code = errno
        // Another process may have created it meanwhile.
        if isDirectory(atPath: path) { return }
        let reason =
            code == EEXIST ? "a file that is not a directory is in its place" : message(code)
        throw .cannotCreateDirectory(path: path, reason: reason)
    }

    /// Whether a directory (or a link to one) is at `path`.
    static func isDirectory(atPath path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The system's description of the error `code`, such as "No such file or directory".
    static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
