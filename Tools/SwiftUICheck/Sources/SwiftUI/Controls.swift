// The containers and controls of forms and lists that the Standups views
// use: buttons with roles and labels, labels, images, pickers, steppers,
// progress, sections, forms and swipe actions.

import Foundation

/// A value that describes the purpose of a button.
public struct ButtonRole: Equatable, Sendable {
    @usableFromInline let id: Int

    /// A role that indicates a destructive button.
    public static let destructive = ButtonRole(id: 0)

    /// A role that indicates a button that cancels an operation.
    public static let cancel = ButtonRole(id: 1)
}

extension Button {
    /// Creates a button that displays a custom label.
    nonisolated public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
        self.label = label()
        self.action = action
    }

    /// Creates a button with a specified role that displays a custom label.
    nonisolated public init(
        role: ButtonRole?, action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label
    ) {
        self.label = label()
        self.action = action
    }
}

extension Button where Label == Text {
    /// Creates a button with a specified role that generates its label from
    /// a string.
    @_disfavoredOverload
    nonisolated public init<S: StringProtocol>(
        _ title: S, role: ButtonRole?, action: @escaping @MainActor () -> Void
    ) {
        self.label = Text(title)
        self.action = action
    }
}

/// A view that displays an image.
@frozen
public struct Image: View, Equatable, Sendable {
    @usableFromInline let name: String

    /// Creates a system symbol image.
    nonisolated public init(systemName: String) {
        self.name = systemName
    }

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

/// A standard label for user interface items, consisting of an icon with a
/// title.
public struct Label<Title: View, Icon: View>: View {
    nonisolated(unsafe) let title: Title
    nonisolated(unsafe) let icon: Icon

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

extension Label where Title == Text, Icon == Image {
    /// Creates a label with a system icon image and a title generated from a
    /// string.
    @_disfavoredOverload
    nonisolated public init<S: StringProtocol>(_ title: S, systemImage name: String) {
        self.title = Text(title)
        self.icon = Image(systemName: name)
    }
}

/// A flexible space that expands along the major axis of its containing
/// stack layout, or on both axes if not contained in a stack.
@frozen
public struct Spacer: View, Sendable {
    /// The minimum length this spacer can be shrunk to, along the axis or
    /// axes of expansion.
    public var minLength: CGFloat?

    /// Creates a spacer.
    @inlinable nonisolated public init(minLength: CGFloat? = nil) {
        self.minLength = minLength
    }

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

/// A view that shows the progress toward completion of a task.
public struct ProgressView<Label: View, CurrentValueLabel: View>: View {
    let fraction: Double?

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    /// Creates a progress view for showing determinate progress.
    nonisolated public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0) {
        self.fraction = value.map { Double($0 / total) }
    }
}

/// A control that performs increment and decrement actions.
public struct Stepper<Label: View>: View {
    nonisolated(unsafe) let label: Label

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

extension Stepper where Label == Text {
    /// Creates a stepper instance that increments and decrements a binding to
    /// a value, by a step size and within a closed range that you provide.
    @_disfavoredOverload
    nonisolated public init<S: StringProtocol, V: Strideable>(
        _ title: S, value: Binding<V>, in bounds: ClosedRange<V>, step: V.Stride = 1,
        onEditingChanged: @escaping (Bool) -> Void = { _ in }
    ) {
        self.label = Text(title)
    }
}

/// A control for selecting from a set of mutually exclusive values.
public struct Picker<Label: View, SelectionValue: Hashable, Content: View>: View {
    nonisolated(unsafe) let label: Label
    nonisolated(unsafe) let selection: Binding<SelectionValue>
    nonisolated(unsafe) let content: Content

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

extension Picker where Label == Text {
    /// Creates a picker that generates its label from a string.
    @_disfavoredOverload
    nonisolated public init<S: StringProtocol>(
        _ title: S, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content
    ) {
        self.label = Text(title)
        self.selection = selection
        self.content = content()
    }
}

extension View {
    /// Sets the unique tag value of this view.
    nonisolated public func tag<V: Hashable>(_ tag: V, includeOptional: Bool = true) -> some View {
        _ModifiedView(content: self)
    }

    /// Adds custom swipe actions to a row in a list.
    nonisolated public func swipeActions<T: View>(
        edge: HorizontalEdge = .trailing, allowsFullSwipe: Bool = true, @ViewBuilder content: () -> T
    ) -> some View {
        _ModifiedView(content: self)
    }
}

extension ForEach where ID == Data.Element.ID, Content: View, Data.Element: Identifiable {
    /// Creates an instance that uniquely identifies and creates views across
    /// updates based on the identity of the underlying data.
    nonisolated public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }
}

extension List where SelectionValue == Never {
    /// Creates a list with the given content.
    nonisolated public init(@ViewBuilder content: () -> Content) {
        self.content = content()
    }
}

/// A container for grouping controls used for data entry, such as in
/// settings or inspectors.
public struct Form<Content: View>: View {
    nonisolated(unsafe) let content: Content

    /// Creates a form with the provided content.
    nonisolated public init(@ViewBuilder content: () -> Content) {
        self.content = content()
    }

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

/// A container view that you can use to add hierarchy within certain views.
public struct Section<Parent, Content, Footer> {
    nonisolated(unsafe) let header: Parent
    nonisolated(unsafe) let content: Content
    nonisolated(unsafe) let footer: Footer
}

extension Section: View where Parent: View, Content: View, Footer: View {
    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

extension Section where Parent == EmptyView, Content: View, Footer == EmptyView {
    /// Creates a section with the provided section content.
    nonisolated public init(@ViewBuilder content: () -> Content) {
        self.header = EmptyView()
        self.content = content()
        self.footer = EmptyView()
    }
}

extension Section where Parent == Text, Content: View, Footer == EmptyView {
    /// Creates a section with the provided section content, whose header is
    /// a text view of a string.
    @_disfavoredOverload
    nonisolated public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {
        self.header = Text(title)
        self.content = content()
        self.footer = EmptyView()
    }
}

extension Text {
    /// A predefined style used to display a `Date`.
    public struct DateStyle: Equatable, Sendable {
        @usableFromInline let id: Int

        /// A style displaying only the time component for a date.
        public static let time = DateStyle(id: 0)

        /// A style displaying a date.
        public static let date = DateStyle(id: 1)
    }

    /// Creates an instance that displays localized dates and times using a
    /// specific style.
    nonisolated public init(_ date: Date, style: Text.DateStyle) {
        self.content = "\(date)"
    }
}
