import ArgumentParser
import Common

/// `--speed`: how many times as fast as real time an app's clock runs —
/// a demo of an app whose features wait (a meeting's timer) without the
/// wait. Add it with `@OptionGroup var speed: SpeedOption` and give the
/// features ``clock``.
///
/// ```
/// $ standups --speed 60     # a minute passes in a second
/// $ standups --speed 0
/// Error: --speed takes a factor from 1 (real time) to 600; 0.0 is not one.
/// ```
public struct SpeedOption: ParsableArguments, Sendable {
    /// The fastest factor: beyond it a timer's ticks outrun a screen's
    /// frames.
    public static let fastest: Double = 600

    // Parsed unconditionally: `--speed -1` is a value to refuse with the
    // range, not an option that takes the place of the value.

    /// The factor given: 1 is real time.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How many times as fast as real time the app's clock runs (a demo: 60 makes a minute pass in a second).",
            valueName: "factor"))
    public var speed: Double = 1

    /// Real time.
    public init() {}

    /// The option's environment variable, for a served app's `variables`.
    public static var variables: [EnvironmentOption] { [EnvironmentOption("speed")] }

    /// Refuses a factor out of 1…600 (or not a number), saying the range.
    public func validate() throws {
        guard speed.isFinite, speed >= 1, speed <= Self.fastest else {
            throw ValidationError(
                "--speed takes a factor from 1 (real time) to \(Int(Self.fastest)); \(speed) is not one.")
        }
    }

    /// The app's clock: the continuous clock, `speed` times as fast.
    public var clock: ScaledClock<ContinuousClock> { ScaledClock(base: ContinuousClock(), factor: speed) }
}
