// A bare `Effect` in an extension of a transducer, in another file than the
// transducer: Oak code writes its effects this way.

import Oak

extension SelfEffect {
    static func addTwice(_ amount: Int) -> Effect {
        .sequence(.event(.add(amount)), .event(.add(amount)))
    }
}
