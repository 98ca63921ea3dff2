// Loading C libraries at run time, so that the app builds and runs where
// they are not installed: `dlopen` a library, `dlsym` its functions.

import Foundation

/// Why a library could not be loaded: its file or one of its functions is
/// missing.
struct LibraryMissing: Error {
    /// What is missing, with `dlerror`'s explanation.
    var reason: String
}

/// A library loaded with `dlopen(RTLD_NOW | RTLD_GLOBAL)`, never closed (its
/// functions stay valid for the life of the process).
struct DynamicLibrary {
    private let handle: UnsafeMutableRawPointer

    /// Loads `name` (a file name the dynamic loader looks up, e.g.
    /// `libpocketsphinx.so.3`).
    init(_ name: String) throws(LibraryMissing) {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_GLOBAL) else {
            throw LibraryMissing(reason: "cannot load \(name): \(Self.lastError())")
        }
        self.handle = handle
    }

    /// The function `name`, as the C function pointer type `F`.
    func function<F>(_ name: String, as type: F.Type) throws(LibraryMissing) -> F {
        guard let symbol = dlsym(handle, name) else {
            throw LibraryMissing(reason: "no function \(name): \(Self.lastError())")
        }
        return unsafeBitCast(symbol, to: type)
    }

    private static func lastError() -> String {
        guard let message = dlerror() else { return "unknown error" }
        return String(cString: message)
    }
}
