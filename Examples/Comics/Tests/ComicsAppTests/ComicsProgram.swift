// Finds the `comics` program that this build made (see `BuiltProgram`).

import Foundation
import TerminalTesting
import Testing

enum ComicsProgram {
    /// The `comics` executable of this build; fails the test, saying what
    /// to build, when it is missing.
    static func url(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        try BuiltProgram.url(named: "comics", packagePath: "Examples/Comics", sourceLocation: sourceLocation)
    }
}
