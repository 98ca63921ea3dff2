#if canImport(SwiftUI)
import SwiftUI
#endif

/// The module's namespace, so that `Oak.Effect<T>` names the effect type of
/// transducer `T` as it does in Oak.
///
/// Oak declares its effect type as a module-level generic `Effect<T>`. A
/// module-level type named `Effect` would hide the transducer's own `Effect`
/// inside every conforming type (Swift looks up a bare type name at module
/// level before it looks at protocol members), so that
/// `static func update(…) -> Effect?` would not compile. This module calls
/// the effect type ``TransducerEffect`` instead and offers Oak's spelling
/// through this enum: since the enum has the module's name, `Oak.Effect<T>`
/// (and `Oak.` before any other public type of the module) resolves here.
///
/// Every spelling compiles:
///
/// ```swift
/// enum Loader: EffectTransducer {
///     // …
///     static func update(_ state: inout State, event: Event) -> Effect? { nil }  // bare
///     static func start() -> Self.Effect { .event(.start) }                      // Self.Effect
///     static func stop() -> Oak.Effect<Self> { .event(.stop) }                   // Oak.Effect<Self>
/// }
/// func effects<T: EffectTransducer>(of: T.Type) -> [T.Effect] { [] }            // T.Effect
/// ```
///
/// Every public type of the module has a member here with the same name, so
/// that any `Oak.Name` written in code that depends on Oak resolves.
public enum Oak {
    /// The effect type of transducer `T`: ``TransducerEffect``.
    public typealias Effect<T: EffectTransducer> = TransducerEffect<T>
    /// ``Oak/BaseTransducer``.
    public typealias BaseTransducer = _OakTypes.BaseTransducerType
    /// ``Oak/Transducer``.
    public typealias Transducer = _OakTypes.TransducerType
    /// ``Oak/EffectTransducer``.
    public typealias EffectTransducer = _OakTypes.EffectTransducerType
    /// ``Oak/TransducerEffect``.
    public typealias TransducerEffect<T: EffectTransducer> = _OakTypes.TransducerEffectType<T>
    /// ``Oak/EffectID``.
    public typealias EffectID = _OakTypes.EffectIDType
    /// ``Oak/EffectID``, by Oak's name.
    public typealias ID = _OakTypes.EffectIDType
    /// ``Oak/Terminable``.
    public typealias Terminable = _OakTypes.TerminableType
    /// ``Oak/NonTerminal``.
    public typealias NonTerminal = _OakTypes.NonTerminalType
    /// ``Oak/Storage``.
    public typealias Storage = _OakTypes.StorageType
    /// ``Oak/TransducerError``.
    public typealias TransducerError = _OakTypes.TransducerErrorType
    /// ``Oak/Proxy``.
    public typealias Proxy<Event> = _OakTypes.ProxyType<Event>
    /// ``Oak/SyncSuspendingProxy``.
    public typealias SyncSuspendingProxy<Event> = _OakTypes.SyncSuspendingProxyType<Event>
    /// ``Oak/TransducerProxy``.
    public typealias TransducerProxy = _OakTypes.TransducerProxyType
    /// ``Oak/BufferedTransducerInput``.
    public typealias BufferedTransducerInput = _OakTypes.BufferedTransducerInputType
    /// ``Oak/SyncSuspendingTransducerInput``.
    public typealias SyncSuspendingTransducerInput = _OakTypes.SyncSuspendingTransducerInputType
    /// ``Oak/Subject``.
    public typealias Subject = _OakTypes.SubjectType
    /// ``Oak/Callback``.
    public typealias Callback<Value> = _OakTypes.CallbackType<Value>
    /// ``Oak/NoCallback``.
    public typealias NoCallback<Value> = _OakTypes.NoCallbackType<Value>
    /// ``Oak/Completable``.
    public typealias Completable = _OakTypes.CompletableType
    /// ``Oak/DefaultInitializable``.
    public typealias DefaultInitializable = _OakTypes.DefaultInitializableType
    /// ``Oak/TransducerHost``.
    public typealias TransducerHost = _OakTypes.TransducerHostType
    /// ``Oak/InspectionRecord``.
    public typealias InspectionRecord<T: BaseTransducer> = _OakTypes.InspectionRecordType<T>
    /// ``Oak/EffectInfo``.
    public typealias EffectInfo = _OakTypes.EffectInfoType
    /// ``Oak/TransducerInspector``.
    public typealias TransducerInspector = _OakTypes.TransducerInspectorType
    /// ``Oak/RunID``.
    public typealias RunID = _OakTypes.RunIDType
    /// ``Oak/TransducerInspection``.
    public typealias TransducerInspection = _OakTypes.TransducerInspectionType
    /// ``Oak/ObservableTransducer``.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    public typealias ObservableTransducer<T: BaseTransducer> = _OakTypes.ObservableTransducerType<T>
    #if canImport(SwiftUI)
    /// ``Oak/TransducerView``.
    public typealias TransducerView<T: BaseTransducer, Content: View> = _OakTypes.TransducerViewType<T, Content>
    #endif
}

/// The public types of the module under second names, which ``Oak`` refers
/// to (inside `enum Oak`, a type's own name means the member being
/// declared). An implementation detail: use the types by their names.
public enum _OakTypes {
    /// ``BaseTransducer`` under a second name.
    public typealias BaseTransducerType = BaseTransducer
    /// ``Transducer`` under a second name.
    public typealias TransducerType = Transducer
    /// ``EffectTransducer`` under a second name.
    public typealias EffectTransducerType = EffectTransducer
    /// ``TransducerEffect`` under a second name.
    public typealias TransducerEffectType<T: EffectTransducer> = TransducerEffect<T>
    /// ``EffectID`` under a second name.
    public typealias EffectIDType = EffectID
    /// ``Terminable`` under a second name.
    public typealias TerminableType = Terminable
    /// ``NonTerminal`` under a second name.
    public typealias NonTerminalType = NonTerminal
    /// ``Storage`` under a second name.
    public typealias StorageType = Storage
    /// ``TransducerError`` under a second name.
    public typealias TransducerErrorType = TransducerError
    /// ``Proxy`` under a second name.
    public typealias ProxyType<Event> = Proxy<Event>
    /// ``SyncSuspendingProxy`` under a second name.
    public typealias SyncSuspendingProxyType<Event> = SyncSuspendingProxy<Event>
    /// ``TransducerProxy`` under a second name.
    public typealias TransducerProxyType = TransducerProxy
    /// ``BufferedTransducerInput`` under a second name.
    public typealias BufferedTransducerInputType = BufferedTransducerInput
    /// ``SyncSuspendingTransducerInput`` under a second name.
    public typealias SyncSuspendingTransducerInputType = SyncSuspendingTransducerInput
    /// ``Subject`` under a second name.
    public typealias SubjectType = Subject
    /// ``Callback`` under a second name.
    public typealias CallbackType<Value> = Callback<Value>
    /// ``NoCallback`` under a second name.
    public typealias NoCallbackType<Value> = NoCallback<Value>
    /// ``Completable`` under a second name.
    public typealias CompletableType = Completable
    /// ``DefaultInitializable`` under a second name.
    public typealias DefaultInitializableType = DefaultInitializable
    /// ``TransducerHost`` under a second name.
    public typealias TransducerHostType = TransducerHost
    /// ``InspectionRecord`` under a second name.
    public typealias InspectionRecordType<T: BaseTransducer> = InspectionRecord<T>
    /// ``EffectInfo`` under a second name.
    public typealias EffectInfoType = EffectInfo
    /// ``TransducerInspector`` under a second name.
    public typealias TransducerInspectorType = TransducerInspector
    /// ``RunID`` under a second name.
    public typealias RunIDType = RunID
    /// ``TransducerInspection`` under a second name.
    public typealias TransducerInspectionType = TransducerInspection
    /// ``ObservableTransducer`` under a second name.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    public typealias ObservableTransducerType<T: BaseTransducer> = ObservableTransducer<T>
    #if canImport(SwiftUI)
    /// ``TransducerView`` under a second name.
    public typealias TransducerViewType<T: BaseTransducer, Content: View> = TransducerView<T, Content>
    #endif
}
