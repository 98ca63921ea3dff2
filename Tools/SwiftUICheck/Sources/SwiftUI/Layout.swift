// Edges, alignment, colours as views, and the layout modifiers the Standups
// views use.

import Foundation

/// An indication of edge or corner in a two-dimensional space.
@frozen
public enum Edge: Int8, CaseIterable, Sendable {
    /// The top edge.
    case top
    /// The leading edge.
    case leading
    /// The bottom edge.
    case bottom
    /// The trailing edge.
    case trailing

    /// An efficient set of edges.
    @frozen
    public struct Set: OptionSet, Sendable {
        /// The raw value of the set.
        public let rawValue: Int8

        /// Creates a set of edges from its raw value.
        public init(rawValue: Int8) { self.rawValue = rawValue }

        /// The top edge.
        public static let top = Set(rawValue: 1 << 0)
        /// The leading edge.
        public static let leading = Set(rawValue: 1 << 1)
        /// The bottom edge.
        public static let bottom = Set(rawValue: 1 << 2)
        /// The trailing edge.
        public static let trailing = Set(rawValue: 1 << 3)
        /// All edges.
        public static let all: Set = [.top, .leading, .bottom, .trailing]
        /// The leading and trailing edges.
        public static let horizontal: Set = [.leading, .trailing]
        /// The top and bottom edges.
        public static let vertical: Set = [.top, .bottom]
    }
}

/// An edge on the horizontal axis.
@frozen
public enum HorizontalEdge: Int8, CaseIterable, Sendable {
    /// The leading edge.
    case leading
    /// The trailing edge.
    case trailing
}

/// An alignment in both axes.
@frozen
public struct Alignment: Equatable, Sendable {
    /// The alignment on the horizontal axis.
    public var horizontal: HorizontalAlignment
    /// The alignment on the vertical axis.
    public var vertical: VerticalAlignment

    /// Creates a custom alignment value with the specified horizontal and
    /// vertical alignment guides.
    @inlinable public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// A guide that marks the center of the view.
    public static let center = Alignment(horizontal: .center, vertical: .center)
}

extension Color {
    /// A profile that specifies how to interpret a color value for display.
    public enum RGBColorSpace: Hashable, Sendable {
        /// The extended red, green, blue (sRGB) color space.
        case sRGB
        /// The extended sRGB color space with a linear transfer function.
        case sRGBLinear
        /// The Display P3 color space.
        case displayP3
    }

    /// Creates a constant color from red, green, and blue component values.
    nonisolated public init(
        _ colorSpace: Color.RGBColorSpace = .sRGB, red: Double, green: Double, blue: Double, opacity: Double = 1
    ) {
        self.init(name: "rgb(\(red), \(green), \(blue), \(opacity))")
    }
}

extension Color: View {
    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

/// A view with a modifier applied whose arguments the stand-in drops (the
/// layout, navigation and presentation modifiers).
public struct _ModifiedView<Content: View>: View {
    nonisolated(unsafe) let content: Content

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

extension View {
    /// Adds an equal padding amount to specific edges of this view.
    nonisolated public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View {
        _ModifiedView(content: self)
    }

    /// Adds a specific padding amount to each edge of this view.
    nonisolated public func padding(_ length: CGFloat) -> some View {
        _ModifiedView(content: self)
    }

    /// Positions this view within an invisible frame with the specified size.
    nonisolated public func frame(
        width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center
    ) -> some View {
        _ModifiedView(content: self)
    }

    /// Sets the view's background to a style.
    nonisolated public func background<S: ShapeStyle>(
        _ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all
    ) -> some View {
        _ModifiedView(content: self)
    }

    /// Places a custom background view behind a list row item.
    nonisolated public func listRowBackground<V: View>(_ view: V?) -> some View {
        _ModifiedView(content: self)
    }

    /// Sets the transparency of this view.
    nonisolated public func opacity(_ opacity: Double) -> some View {
        _ModifiedView(content: self)
    }

    /// Adds a condition that controls whether users can interact with this
    /// view.
    nonisolated public func disabled(_ disabled: Bool) -> some View {
        _ModifiedView(content: self)
    }
}
