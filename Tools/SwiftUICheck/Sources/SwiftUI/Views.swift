import Foundation

/// A view that displays one or more lines of read-only text.
@frozen
public struct Text: View, Equatable, Sendable {
    @usableFromInline let content: String

    /// Creates a text view that displays a stored string without localization.
    nonisolated public init<S: StringProtocol>(_ content: S) {
        self.content = String(content)
    }

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

/// A control that initiates an action.
public struct Button<Label: View>: View {
    nonisolated(unsafe) let label: Label
    let action: @MainActor () -> Void

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

extension Button where Label == Text {
    /// Creates a button that generates its label from a string.
    @_disfavoredOverload
    nonisolated public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {
        self.label = Text(title)
        self.action = action
    }
}

/// An alignment position along the horizontal axis.
@frozen
public struct HorizontalAlignment: Equatable, Sendable {
    @usableFromInline let id: Int

    /// A guide that marks the horizontal center of the view.
    public static let center = HorizontalAlignment(id: 0)

    /// A guide that marks the leading edge of the view.
    public static let leading = HorizontalAlignment(id: 1)

    /// A guide that marks the trailing edge of the view.
    public static let trailing = HorizontalAlignment(id: 2)
}

/// An alignment position along the vertical axis.
@frozen
public struct VerticalAlignment: Equatable, Sendable {
    @usableFromInline let id: Int

    /// A guide that marks the vertical center of the view.
    public static let center = VerticalAlignment(id: 0)
}

/// A view that arranges its subviews in a vertical line.
@frozen
public struct VStack<Content: View>: View {
    @usableFromInline let alignment: HorizontalAlignment
    @usableFromInline let spacing: CGFloat?
    @usableFromInline nonisolated(unsafe) let content: Content

    /// Creates an instance with the given spacing and horizontal alignment.
    @inlinable nonisolated public init(
        alignment: HorizontalAlignment = .center,
        spacing: CGFloat? = nil,
        @ViewBuilder content: () -> Content
    ) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

/// A view that arranges its subviews in a horizontal line.
@frozen
public struct HStack<Content: View>: View {
    @usableFromInline let alignment: VerticalAlignment
    @usableFromInline let spacing: CGFloat?
    @usableFromInline nonisolated(unsafe) let content: Content

    /// Creates a horizontal stack with the given spacing and vertical alignment.
    @inlinable nonisolated public init(
        alignment: VerticalAlignment = .center,
        spacing: CGFloat? = nil,
        @ViewBuilder content: () -> Content
    ) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

/// A structure that computes views on demand from an underlying collection
/// of identified data.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {
    /// The collection of underlying identified data.
    nonisolated(unsafe) public var data: Data
    /// A function to create content on demand using the underlying data.
    nonisolated(unsafe) public var content: (Data.Element) -> Content
}

extension ForEach: View where Content: View {
    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

extension ForEach where Content: View {
    /// Creates an instance that uniquely identifies and creates views across
    /// updates based on the provided key path to the underlying data's
    /// identifier.
    nonisolated public init(
        _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content
    ) {
        self.data = data
        self.content = content
    }
}

/// A container that presents rows of data arranged in a single column.
public struct List<SelectionValue: Hashable, Content: View>: View {
    nonisolated(unsafe) let content: Content

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

extension List where SelectionValue == Never {
    /// Creates a list that computes its rows on demand from an underlying
    /// collection of identifiable data.
    nonisolated public init<Data: RandomAccessCollection, RowContent: View>(
        _ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    ) where Content == ForEach<Data, Data.Element.ID, RowContent>, Data.Element: Identifiable {
        self.content = ForEach(data, id: \.id, content: rowContent)
    }
}

/// A control that displays an editable text interface.
public struct TextField<Label: View>: View {
    nonisolated(unsafe) let label: Label
    nonisolated(unsafe) let text: Binding<String>

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

extension TextField where Label == Text {
    /// Creates a text field with a text label generated from a title string.
    @_disfavoredOverload
    nonisolated public init<S: StringProtocol>(_ title: S, text: Binding<String>) {
        self.label = Text(title)
        self.text = text
    }
}

/// A view with a modifier applied (here: the `.task` modifier only).
public struct _TaskModifiedContent<Content: View>: View {
    nonisolated(unsafe) let content: Content
    let priority: TaskPriority
    let action: @Sendable () async -> Void

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

extension View {
    /// Adds an asynchronous task to perform before this view appears; SwiftUI
    /// cancels it when the view disappears.
    nonisolated public func task(
        priority: TaskPriority = .userInitiated,
        @_inheritActorContext _ action: @escaping @Sendable () async -> Void
    ) -> some View {
        _TaskModifiedContent(content: self, priority: priority, action: action)
    }
}
