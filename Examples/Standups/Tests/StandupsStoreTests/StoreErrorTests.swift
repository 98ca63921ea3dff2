// What the user is told when the stand-ups file cannot be used: a file
// that may be read but not written is said to be read-only (with what to
// do), not "could not be read".

import GRDB
import Testing

@testable import StandupsStore

@Suite("Store errors, as the user reads them")
struct StoreErrorTests {
    @Test func aReadOnlyFileIsSaidToBeReadOnly() {
        let readOnly = DatabaseError(resultCode: .SQLITE_READONLY, message: "attempt to write a readonly database")
        let error = StandupsStore.failure(readOnly, path: "/data/standups.sqlite") {
            .writeFailed(reason: $0)
        }
        #expect(error == .readOnly(path: "/data/standups.sqlite"))
        #expect(error.summary == "The stand-ups file is read-only: changes cannot be saved.")
        #expect(error.description.contains("chmod u+w"))
        #expect(!error.summary.contains("could not be read"))
    }

    @Test func otherFailuresKeepTheirKind() {
        let busy = DatabaseError(resultCode: .SQLITE_BUSY, message: "database is locked")
        let error = StandupsStore.failure(busy, path: "/data/standups.sqlite") { .unreadable(path: "p", reason: $0) }
        guard case .unreadable = error else {
            Issue.record("a busy file is away, not read-only: \(error)")
            return
        }
    }
}
