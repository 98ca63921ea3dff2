import Oak
import Testing
import WebUI

@Suite("Forms bound to intents")
struct WebContextTests {
    @Test func aPostPerformsTheBindingItsKeyNames() {
        let context = WebContext(token: "t")
        var performed: [String] = []
        context.bind("a") { _ in
            performed.append("a")
            return .sent
        }
        context.bind("b") { form in
            performed.append("b \(form.fields["x"] ?? "")")
            return .stale
        }
        #expect(context.keys == ["a", "b"])
        #expect(context.perform(WebForm(fields: ["intent": "b", "x": "1"])) == .stale)
        #expect(context.perform(WebForm(fields: ["intent": "a"])) == .sent)
        #expect(performed == ["b 1", "a"])
    }

    @Test func aKeyThePageDoesNotBindPerformsNothing() {
        let context = WebContext(token: "t")
        context.bind("a") { _ in
            Issue.record("performed")
            return .sent
        }
        #expect(context.perform(WebForm(fields: ["intent": "b"])) == nil)
        #expect(context.perform(WebForm(fields: [:])) == nil)
    }

    @Test func aKeyBoundTwiceOnOnePagePerformsNeither() {
        let context = WebContext(token: "t")
        context.bind("open") { _ in
            Issue.record("performed the first")
            return .sent
        }
        context.bind("open") { _ in
            Issue.record("performed the second")
            return .sent
        }
        #expect(context.duplicateKeys == ["open"])
        #expect(context.perform(WebForm(fields: ["intent": "open"])) == nil)
    }

    @Test func anIntentIsMadeOnlyWhenItsKeyIsPosted() {
        var made = 0
        func next() -> Intent<Int>? {
            made += 1
            return nil
        }
        let context = WebContext(token: "t")
        let form = context.button("Next", key: "next", intent: next())
        #expect(form.rendered.contains("value=\"next\""))
        #expect(made == 0)
        #expect(context.perform(WebForm(fields: ["intent": "next"])) == nil)  // not offered
        #expect(made == 1)
    }

    @Test func aPageRenderedToBeSentKeepsNoBindings() {
        let context = WebContext(token: "t", keepsBindings: false)
        #expect(context.bind("a") { _ in .sent } == "a")
        #expect(context.keys.isEmpty)
        #expect(context.perform(WebForm(fields: ["intent": "a"])) == nil)
    }

    @Test func aNumberFormPerformsOnlyWithAPositiveNumber() {
        var numbers: [Int] = []
        func goTo(_ number: Int) -> Intent<Int>? {
            numbers.append(number)
            return nil
        }
        let context = WebContext(token: "t")
        let form = context.numberForm("Go", key: "goTo", placeholder: "Number", intent: goTo)
        #expect(form.rendered.contains("name=\"number\""))
        for number in ["", "0", "-3", "12a", "1234567890"] {
            #expect(context.perform(WebForm(fields: ["intent": "goTo", "number": number])) == nil)
        }
        _ = context.perform(WebForm(fields: ["intent": "goTo", "number": "42"]))
        #expect(numbers == [42])
    }
}
