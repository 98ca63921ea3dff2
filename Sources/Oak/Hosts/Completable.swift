// The completion protocol of the hosts (`ObservableTransducer`, `TransducerView`).

/// Something that is told once how a piece of work ended: the completion of
/// a host (``ObservableTransducer/Completion``, `TransducerView.Completion`).
public protocol Completable<Value, Failure> {
    /// The value of a successful end.
    associatedtype Value
    /// The error of a failed end.
    associatedtype Failure: Error
    /// Called exactly once, with how the work ended.
    func completed(with result: Result<Value, Failure>)
}
