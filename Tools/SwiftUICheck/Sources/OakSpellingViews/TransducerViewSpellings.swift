// `TransducerView` written the way code against Oak 0.34 writes it (the
// shapes of Oak's own view tests): `of:` given or left out, `proxy:`,
// `output:`, `env:` and `completion:` as a `Completion` value, `nil` or a
// closure, and the view's member typealiases. Type-checked only.
import Oak
import SwiftUI

enum VoidTransducer: Transducer {
    enum State: NonTerminal { case start }
    enum Event { case start }
    static func update(_ state: inout State, event: Event) {}
}

enum OutputTransducer: Transducer {
    enum State: NonTerminal { case start }
    enum Event { case start }
    static func update(_ state: inout State, event: Event) -> Int { 1 }
}

enum EffectOnlyTransducer: EffectTransducer {
    enum State: NonTerminal { case start }
    enum Event { case start }
    static func update(_ state: inout State, event: Event) -> Self.Effect? { nil }
}

enum EffectOutputTransducer: EffectTransducer {
    enum State: NonTerminal { case start }
    enum Event { case start }
    typealias Output = Int
    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Int) { (nil, 1) }
}

@MainActor
func makeViews(_ initialState: Binding<VoidTransducer.State>) {
    typealias T = VoidTransducer
    let first = TransducerView(
        of: T.self,
        initialState: initialState,
        proxy: .init(),
        completion: nil,
        content: { _, _ in EmptyView() }
    )
    _ = type(of: first).Output.self
    let second = TransducerView(
        of: T.self,
        initialState: initialState,
        completion: .init({ result in }),
        content: { state, input in EmptyView() }
    )
    _ = second
    let third = TransducerView(of: T.self, initialState: initialState) { state, input in
        Button("Start") { try? input.send(.start) }
    }
    third.cancel()
}

@MainActor
func makeOutputViews(_ initialState: Binding<OutputTransducer.State>) {
    typealias T = OutputTransducer
    let first = TransducerView(
        of: T.self,
        initialState: initialState,
        proxy: .init(),
        output: Callback({ output in }),
        completion: nil,
        content: { _, _ in EmptyView() }
    )
    _ = type(of: first).Output.self
    _ = TransducerView(
        of: T.self,
        initialState: initialState,
        output: NoCallback(),
        content: { _, _ in EmptyView() }
    )
    _ = TransducerView<T, EmptyView>.Completion { result in
        if case .success(let value) = result { _ = value + 1 }
    }
}

@MainActor
func makeEffectViews(
    _ effectOnly: Binding<EffectOnlyTransducer.State>, _ effectOutput: Binding<EffectOutputTransducer.State>
) {
    let first = TransducerView(
        of: EffectOnlyTransducer.self,
        initialState: effectOnly,
        proxy: .init(),
        env: Void(),
        completion: nil,
        content: { _, _ in EmptyView() }
    )
    _ = type(of: first).Env.self
    _ = TransducerView(
        of: EffectOnlyTransducer.self,
        initialState: effectOnly,
        env: Void(),
        content: { _, _ in EmptyView() }
    )
    _ = TransducerView(
        of: EffectOutputTransducer.self,
        initialState: effectOutput,
        env: Void(),
        output: Callback { output in },
        completion: .init { result in },
        content: { _, _ in EmptyView() }
    )
    _ = TransducerView(
        of: EffectOutputTransducer.self,
        initialState: effectOutput,
        env: Void(),
        completion: .init { result in },
        content: { _, _ in EmptyView() }
    )
}

/// A view that leaves out `of:`: the type comes from the content's
/// declared type.
struct CounterScreen: View {
    @SwiftUI.State private var state = OutputTransducer.State.start

    var body: some View {
        TransducerView<OutputTransducer, Text>(initialState: $state, output: Callback { @MainActor count in }) {
            state, input in
            Text("state: \(state)")
        }
    }
}
