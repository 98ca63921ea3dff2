// Fonts and shape styles, and the modifiers that apply them.

/// An environment-dependent font.
@frozen
public struct Font: Hashable, Sendable {
    @usableFromInline let name: String

    /// A font with the headline text style.
    public static let headline = Font(name: "headline")

    /// A font with the body text style.
    public static let body = Font(name: "body")

    /// A font with the caption text style.
    public static let caption = Font(name: "caption")
}

/// A color or pattern to use when rendering a shape.
public protocol ShapeStyle: Sendable {}

/// A shape style that maps to one of the numbered content styles.
@frozen
public struct HierarchicalShapeStyle: ShapeStyle {
    @usableFromInline let level: Int
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    /// A shape style that maps to the second level of the current content
    /// style.
    public static var secondary: HierarchicalShapeStyle { HierarchicalShapeStyle(level: 1) }
}

/// A representation of a color that adapts to a given context.
@frozen
public struct Color: Hashable, Sendable, ShapeStyle {
    @usableFromInline let name: String
}

extension ShapeStyle where Self == Color {
    /// A context-dependent red color suitable for use in UI elements.
    public static var red: Color { Color(name: "red") }
}

/// A view with a modifier applied (here: `.font` and `.foregroundStyle`).
public struct _StyledContent<Content: View>: View {
    nonisolated(unsafe) let content: Content

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

extension View {
    /// Sets the default font for text in this view.
    nonisolated public func font(_ font: Font?) -> some View {
        _StyledContent(content: self)
    }

    /// Sets a view's foreground elements to use a given style.
    nonisolated public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View {
        _StyledContent(content: self)
    }
}
