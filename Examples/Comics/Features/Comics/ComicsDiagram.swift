// The Comics transducer's state diagram, as `comics graph` prints it.
// Generated from the transducer by ComicsDiagramTests (OakTesting's
// StateGraph), which fails when this copy is out of date; do not edit.

/// The state diagram of ``Comics``.
public enum ComicsDiagram {
    /// In Mermaid.
    public static let mermaid = """
        stateDiagram-v2
            state "idle" as s0
            state "loading" as s1
            state "showing" as s2
            state "not found" as s3
            [*] --> s0
            s0 --> s1: start
            s0 --> s1: latest
            s0 --> s1: random
            s0 --> s1: goTo
            s1 --> s1: random
            s1 --> s1: goTo
            s1 --> s0: cancel
            s1 --> s2: didLoad (received)
            s1 --> s1: start
            s1 --> s1: latest
            s1 --> s1: next
            s1 --> s1: previous
            s1 --> s3: didFail (received)
            s0 --> s0: next
            s0 --> s0: previous
            s2 --> s1: start
            s2 --> s2: next
            s2 --> s1: previous
            s2 --> s1: latest
            s2 --> s1: random
            s2 --> s1: goTo
            s2 --> s2: toggleFavourite
            s2 --> s2: didSetFavourite (received)
            s3 --> s1: start
            s3 --> s3: next
            s3 --> s1: previous
            s3 --> s1: latest
            s3 --> s1: random
            s3 --> s1: goTo
            s1 --> s2: cancel
            s2 --> s1: next
            s3 --> s1: next
            s2 --> s2: previous

        """

    /// In Graphviz DOT.
    public static let dot = """
        digraph "Comics" {
            rankdir=LR;
            node [shape=box, style=rounded];
            start [shape=point];
            start -> "idle";
            "idle" -> "loading" [label="start"];
            "idle" -> "loading" [label="latest"];
            "idle" -> "loading" [label="random"];
            "idle" -> "loading" [label="goTo"];
            "loading" -> "loading" [label="random"];
            "loading" -> "loading" [label="goTo"];
            "loading" -> "idle" [label="cancel"];
            "loading" -> "showing" [label="didLoad (received)"];
            "loading" -> "loading" [label="start"];
            "loading" -> "loading" [label="latest"];
            "loading" -> "loading" [label="next"];
            "loading" -> "loading" [label="previous"];
            "loading" -> "not found" [label="didFail (received)"];
            "idle" -> "idle" [label="next"];
            "idle" -> "idle" [label="previous"];
            "showing" -> "loading" [label="start"];
            "showing" -> "showing" [label="next"];
            "showing" -> "loading" [label="previous"];
            "showing" -> "loading" [label="latest"];
            "showing" -> "loading" [label="random"];
            "showing" -> "loading" [label="goTo"];
            "showing" -> "showing" [label="toggleFavourite"];
            "showing" -> "showing" [label="didSetFavourite (received)"];
            "not found" -> "loading" [label="start"];
            "not found" -> "not found" [label="next"];
            "not found" -> "loading" [label="previous"];
            "not found" -> "loading" [label="latest"];
            "not found" -> "loading" [label="random"];
            "not found" -> "loading" [label="goTo"];
            "loading" -> "showing" [label="cancel"];
            "showing" -> "loading" [label="next"];
            "not found" -> "loading" [label="next"];
            "showing" -> "showing" [label="previous"];
        }

        """
}
