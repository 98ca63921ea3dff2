// Keys typed ahead are handed on in order, each once the app has settled
// after the one before (or has waited long enough): `a X Enter Enter` on an
// empty list opens the new stand-up, whatever the speed of the typist.

import Testing

@testable import TerminalUI

@Suite("Keys typed ahead")
struct TypeAheadTests {
    @Test func keysAreHandedOnInOrderWhileTheAppSettlesAtOnce() {
        var typeAhead = TypeAhead()
        for key in [Key.character("a"), .character("X"), .enter, .enter] { typeAhead.append(key) }
        var handed: [Key] = []
        while let key = typeAhead.next(settled: true) {
            handed.append(key)
            typeAhead.handled(settled: true)
        }
        #expect(handed == [.character("a"), .character("X"), .enter, .enter])
    }

    @Test func theKeyAfterOneThatLeftTheAppUnsettledWaitsUntilItHasSettled() {
        var typeAhead = TypeAhead()
        typeAhead.append(.enter)
        typeAhead.append(.enter)
        #expect(typeAhead.next(settled: true) == .enter)
        // The first Enter added a stand-up: on its way to the store.
        typeAhead.handled(settled: false)
        #expect(typeAhead.next(settled: false) == nil, "the second Enter waits")
        #expect(typeAhead.isSettling && typeAhead.keys == [.enter])
        // A key typed meanwhile waits behind it.
        typeAhead.append(.character("q"))
        #expect(typeAhead.next(settled: false) == nil)
        // Settled: the list has it; the second Enter opens it, then `q`.
        #expect(typeAhead.next(settled: true) == .enter)
        typeAhead.handled(settled: true)
        #expect(typeAhead.next(settled: true) == .character("q"))
    }

    @Test func keysWaitNoLongerThanTheLimitForAnAppThatDoesNotSettle() {
        var typeAhead = TypeAhead()
        typeAhead.append(.enter)
        typeAhead.append(.escape)
        #expect(typeAhead.next(settled: false) == .enter, "the first key is never held")
        typeAhead.handled(settled: false)
        #expect(typeAhead.next(settled: false) == nil)
        #expect(typeAhead.next(settled: false, waitedEnough: true) == .escape)
    }
}
