/// An interface for a stored variable that updates an external property of a
/// view.
public protocol DynamicProperty {
    /// Updates the underlying value of the stored value.
    mutating func update()
}

extension DynamicProperty {
    /// Does nothing.
    public mutating func update() {}
}

/// A property wrapper type that can read and write a value owned by a source
/// of truth.
@frozen @propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    @usableFromInline let get: () -> Value
    @usableFromInline let set: (Value) -> Void

    /// Creates a binding with closures that read and write the binding value.
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }

    /// The underlying value referenced by the binding variable.
    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }

    /// A projection of the binding value that returns a binding.
    public var projectedValue: Binding<Value> { self }

    /// Returns a binding to the resulting value of a given key path.
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        Binding<Subject>(
            get: { self.wrappedValue[keyPath: keyPath] },
            set: { self.wrappedValue[keyPath: keyPath] = $0 }
        )
    }
}

extension Binding: DynamicProperty {}

/// A property wrapper type that can read and write a value managed by SwiftUI.
@frozen @propertyWrapper
public struct State<Value>: DynamicProperty {
    @usableFromInline final class Box {
        @usableFromInline var value: Value
        @usableFromInline init(_ value: Value) { self.value = value }
    }

    @usableFromInline let box: Box

    /// Creates a state property that stores an initial value.
    public init(wrappedValue value: Value) {
        box = Box(value)
    }

    /// Creates a state property that stores an initial value.
    public init(initialValue value: Value) {
        box = Box(value)
    }

    /// The underlying value referenced by the state variable.
    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }

    /// A binding to the state value.
    public var projectedValue: Binding<Value> {
        let box = self.box
        return Binding(get: { box.value }, set: { box.value = $0 })
    }
}
