// A session's state reports only the writes that change it: a run writes
// after every update, also one that changes nothing (a meeting's tick while
// a question is open), and each report pushes a page to every open page of
// the session.

import Testing

@testable import WebHost

@Suite("A session's state")
struct SessionStateTests {
    @Test func onlyAWriteThatChangesTheStateIsReported() {
        let state = WebSessionState(0)
        var reports = 0
        state.didChange = { reports += 1 }
        state.value = 0
        #expect(reports == 0)
        state.value = 1
        state.value = 1
        #expect(reports == 1)
        state.value = 2
        #expect(reports == 2)
    }
}
