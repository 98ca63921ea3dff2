// The identifier of an operation, for replacing and cancelling it.

/// The identifier of an operation, as given to an `Effect` initializer's
/// `id:` or to ``Effect/cancelTask(_:)``.
///
/// Safety (`@unchecked Sendable`): `AnyHashable` is not `Sendable`, but an
/// `EffectID` can only be created from a value that is `Hashable & Sendable`.
public struct EffectID: Hashable, @unchecked Sendable, CustomStringConvertible {
    /// The identifier as given.
    public let base: AnyHashable

    /// Wraps `id`.
    ///
    /// An `EffectID` given as the value is taken as it is, not wrapped
    /// again: `EffectID(EffectID("load")) == EffectID("load")`.
    @inlinable
    public init(_ id: some Hashable & Sendable) {
        if let id = id as? EffectID {
            self = id
        } else {
            base = AnyHashable(id)
        }
    }

    /// The description of the wrapped identifier.
    public var description: String { "\(base)" }
}

extension EffectID: ExpressibleByStringLiteral {
    /// An id written as a string literal, as in `.cancelTask("load")` or a
    /// test's `.operation(id: "load")`.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}

extension EffectID: ExpressibleByIntegerLiteral {
    /// An id written as an integer literal.
    public init(integerLiteral value: Int) {
        self.init(value)
    }
}

/// Oak's name for the type of operation identifiers: ``EffectID``.
public typealias ID = EffectID
