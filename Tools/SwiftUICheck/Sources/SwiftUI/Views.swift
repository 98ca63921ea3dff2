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
