import Common
import Testing

@Suite("Editing a line of text")
struct TextEditingTests {
    @Test func typingMovingAndDeleting() {
        var field = EditableText("")
        field.apply(.insert("Blob"))
        #expect(field == EditableText("Blob", cursor: 4))
        field.apply(.left)
        field.apply(.left)
        field.apply(.insert("é"))
        #expect(field == EditableText("Bléob", cursor: 3))
        field.apply(.deleteBackward)
        field.apply(.deleteForward)
        #expect(field == EditableText("Blb", cursor: 2))
        field.apply(.home)
        field.apply(.deleteBackward)
        #expect(field == EditableText("Blb", cursor: 0))
        field.apply(.end)
        field.apply(.deleteForward)
        field.apply(.right)
        #expect(field == EditableText("Blb", cursor: 3))
    }

    @Test func controlCharactersAreDroppedAndTheLimitHolds() {
        var field = EditableText("ab")
        field.apply(.insert("c\u{1B}[2Jd\ne\u{7}"), limit: 5)
        #expect(field.text == "abcd ")
        field.apply(.insert("f"), limit: 5)
        #expect(field == EditableText("abcd ", cursor: 5))
    }

    @Test func aCursorOutOfRangeIsClamped() {
        #expect(EditableText("abc", cursor: 9).cursor == 3)
        #expect(EditableText("abc", cursor: -1).cursor == 0)
        var field = EditableText("abc")
        field.cursor = 10
        field.apply(.deleteBackward)
        #expect(field == EditableText("ab", cursor: 2))
    }
}
