// Navigation stacks, toolbars and presentations (sheets, alerts,
// confirmation dialogs), as the Standups views use them.

/// A type-erased list of data representing the content of a navigation
/// stack.
public struct NavigationPath: Equatable, Sendable {
    @usableFromInline var count: Int

    /// Creates a new, empty navigation path.
    nonisolated public init() {
        count = 0
    }
}

/// A view that displays a root view and enables you to present additional
/// views over the root view.
public struct NavigationStack<Data, Root: View>: View {
    nonisolated(unsafe) let root: Root

    /// Primitive view.
    public typealias Body = Never
    /// Primitive view.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

extension NavigationStack where Data == NavigationPath {
    /// Creates a navigation stack that manages its own navigation state.
    nonisolated public init(@ViewBuilder root: () -> Root) {
        self.root = root()
    }
}

extension NavigationStack
where Data: MutableCollection, Data: RandomAccessCollection, Data: RangeReplaceableCollection, Data.Element: Hashable {
    /// Creates a navigation stack with homogeneous navigation state that you
    /// can control.
    nonisolated public init(path: Binding<Data>, @ViewBuilder root: () -> Root) {
        self.root = root()
    }
}

/// The visibility of a UI element, chosen automatically based on the
/// platform, current context, and other factors.
@frozen
public enum Visibility: Hashable, CaseIterable, Sendable {
    /// The element may be visible or hidden depending on the policies of the
    /// component accepting the visibility configuration.
    case automatic
    /// The element may be visible.
    case visible
    /// The element may be hidden.
    case hidden
}

extension View {
    /// Associates a destination view with a presented data type for use
    /// within a navigation stack.
    nonisolated public func navigationDestination<D: Hashable, C: View>(
        for data: D.Type, @ViewBuilder destination: @escaping (D) -> C
    ) -> some View {
        _ModifiedView(content: self)
    }

    /// Configures the view's title for purposes of navigation, using a
    /// string.
    @_disfavoredOverload
    nonisolated public func navigationTitle<S: StringProtocol>(_ title: S) -> some View {
        _ModifiedView(content: self)
    }

    /// Hides the navigation bar back button for the view.
    nonisolated public func navigationBarBackButtonHidden(_ hidesBackButton: Bool = true) -> some View {
        _ModifiedView(content: self)
    }

    /// Presents a sheet when a binding to a Boolean value that you provide is
    /// true.
    nonisolated public func sheet<Content: View>(
        isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content
    ) -> some View {
        _ModifiedView(content: self)
    }

    /// Presents an alert with a message when a given condition is true using
    /// a string variable as a title.
    @_disfavoredOverload
    nonisolated public func alert<S: StringProtocol, A: View, M: View>(
        _ title: S, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A, @ViewBuilder message: () -> M
    ) -> some View {
        _ModifiedView(content: self)
    }

    /// Presents a confirmation dialog with a message when a given condition
    /// is true, using a string variable for the title.
    @_disfavoredOverload
    nonisolated public func confirmationDialog<S: StringProtocol, A: View, M: View>(
        _ title: S, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic,
        @ViewBuilder actions: () -> A, @ViewBuilder message: () -> M
    ) -> some View {
        _ModifiedView(content: self)
    }

    /// Populates the toolbar or navigation bar with the specified items.
    nonisolated public func toolbar<Content: ToolbarContent>(
        @ToolbarContentBuilder content: () -> Content
    ) -> some View {
        _ModifiedView(content: self)
    }
}

/// Conforming types represent items that can be placed in various locations
/// in a toolbar.
@MainActor @preconcurrency
public protocol ToolbarContent {
    /// The type of content representing the body of this toolbar content.
    associatedtype Body: ToolbarContent

    /// The composition of content that comprise the toolbar content.
    @ToolbarContentBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: ToolbarContent {}

/// Constructs a toolbar item set from multi-expression closures.
@resultBuilder
public struct ToolbarContentBuilder {
    /// Passes a single toolbar item through unmodified.
    public static func buildExpression<Content: ToolbarContent>(_ content: Content) -> Content { content }

    /// A block of one item builds that item.
    public static func buildBlock<Content: ToolbarContent>(_ content: Content) -> Content { content }

    /// A block of several items builds a tuple of them.
    public static func buildBlock<each Content: ToolbarContent>(
        _ content: repeat each Content
    ) -> _TupleToolbarContent<(repeat each Content)> {
        _TupleToolbarContent((repeat each content))
    }
}

/// Toolbar content made of several items.
public struct _TupleToolbarContent<T>: ToolbarContent {
    nonisolated(unsafe) let value: T

    nonisolated init(_ value: T) { self.value = value }

    /// Primitive content.
    public typealias Body = Never
    /// Primitive content.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

/// A structure that defines the placement of a toolbar item.
public struct ToolbarItemPlacement: Sendable {
    @usableFromInline let id: Int

    /// The system places the item automatically.
    public static let automatic = ToolbarItemPlacement(id: 0)

    /// The item represents a primary action.
    public static let primaryAction = ToolbarItemPlacement(id: 1)

    /// The item represents a confirmation action for a modal interface.
    public static let confirmationAction = ToolbarItemPlacement(id: 2)

    /// The item represents a cancellation action for a modal interface.
    public static let cancellationAction = ToolbarItemPlacement(id: 3)
}

/// A model that represents an item which can be placed in the toolbar or
/// navigation bar.
public struct ToolbarItem<ID, Content: View>: ToolbarContent {
    nonisolated(unsafe) let content: Content
    let placement: ToolbarItemPlacement

    /// Primitive content.
    public typealias Body = Never
    /// Primitive content.
    public var body: Never { fatalError("SwiftUI stand-in: not to be run") }
}

extension ToolbarItem where ID == () {
    /// Creates a toolbar item with the specified placement and content.
    nonisolated public init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {
        self.placement = placement
        self.content = content()
    }
}
