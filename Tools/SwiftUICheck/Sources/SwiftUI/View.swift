// A stand-in for Apple's SwiftUI, for type-checking Oak's SwiftUI adapter, the
// README's SwiftUI snippets, the Comics scenes' SwiftUI views and the Standups
// app's SwiftUI views on Linux, where SwiftUI does not exist. It declares only
// what those sources use, with the signatures and the main-actor isolation of
// Apple's SDK. It is never run: bodies of primitive views trap.

/// A piece of user interface (stand-in for `SwiftUI.View`).
@MainActor @preconcurrency
public protocol View {
    /// The type of view representing the body of this view.
    associatedtype Body: View

    /// The content and behavior of the view.
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    /// `Never` is the body of primitive views.
    public typealias Body = Never

    /// Primitive views have no body.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

/// Builds views from closures (stand-in for `SwiftUI.ViewBuilder`).
@resultBuilder
public struct ViewBuilder {
    /// Passes a single view through unmodified.
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }

    /// An empty block builds an empty view.
    public static func buildBlock() -> EmptyView { EmptyView() }

    /// A block of one view builds that view.
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }

    /// A block of several views builds a tuple view.
    public static func buildBlock<each Content: View>(
        _ content: repeat each Content
    ) -> TupleView<(repeat each Content)> {
        TupleView((repeat each content))
    }

    /// An `if` without `else` builds an optional view.
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }

    /// The first branch of an `if`-`else` or `switch` builds conditional
    /// content.
    public static func buildEither<TrueContent: View, FalseContent: View>(
        first: TrueContent
    ) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(.trueContent(first))
    }

    /// The second branch of an `if`-`else` or `switch` builds conditional
    /// content.
    public static func buildEither<TrueContent: View, FalseContent: View>(
        second: FalseContent
    ) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(.falseContent(second))
    }
}

/// View content that shows one of two possible children.
@frozen
public struct _ConditionalContent<TrueContent, FalseContent> {
    @usableFromInline enum Storage {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }

    @usableFromInline nonisolated(unsafe) let storage: Storage

    @usableFromInline nonisolated init(_ storage: Storage) { self.storage = storage }
}

extension _ConditionalContent: View where TrueContent: View, FalseContent: View {
    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

extension Optional: View where Wrapped: View {
    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

/// A view that displays nothing.
@frozen
public struct EmptyView: View {
    /// Creates an empty view.
    @inlinable nonisolated public init() {}

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

/// A view created from a tuple of views.
@frozen
public struct TupleView<T>: View {
    /// The views.
    nonisolated(unsafe) public var value: T

    /// Creates a tuple view.
    @inlinable nonisolated public init(_ value: T) { self.value = value }

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}
