/// The identifier of an operation, as given to an `Effect` initializer's
/// `id:` or to ``TransducerEffect/cancelTask(_:)``.
///
/// Safety (`@unchecked Sendable`): `AnyHashable` is not `Sendable`, but an
/// `EffectID` can only be created from a value that is `Hashable & Sendable`.
public struct EffectID: Hashable, @unchecked Sendable, CustomStringConvertible {
    /// The identifier as given.
    public let base: AnyHashable

    /// Wraps `id`.
    @inlinable
    public init(_ id: some Hashable & Sendable) {
        base = AnyHashable(id)
    }

    /// The description of the wrapped identifier.
    public var description: String { "\(base)" }
}

/// Oak's name for the type of operation identifiers: ``EffectID``.
public typealias ID = EffectID
