// Loading a C library at run time: a missing library or function is an
// error saying what is missing (the recogniser is then "restricted"), never
// a crash.

import Testing

@testable import SpeechRecognizer

@Suite("Loading libraries at run time")
struct DynamicLibraryTests {
    @Test func aMissingLibraryOrFunctionIsAnError() throws {
        let missing = #expect(throws: LibraryMissing.self) { try DynamicLibrary("liboak-not-installed.so.9") }
        #expect(missing?.reason.hasPrefix("cannot load liboak-not-installed.so.9: ") == true)
        #if os(Linux)
        let libc = try DynamicLibrary("libc.so.6")
        typealias Function = @convention(c) () -> Void
        let noFunction = #expect(throws: LibraryMissing.self) {
            try libc.function("oak_no_such_function", as: Function.self)
        }
        #expect(noFunction?.reason.hasPrefix("no function oak_no_such_function: ") == true)
        #endif
    }
}
