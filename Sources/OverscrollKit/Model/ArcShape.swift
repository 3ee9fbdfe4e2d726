import Glibc

/// The refresh indicator's arc, in turns (1 = a full circle), clockwise from 3 o'clock.
public struct ArcShape: Sendable, Equatable {
    /// Where the arc starts, in turns.
    public var start: Double
    /// How much of a circle it covers: 0…0.8 while pulling, 1 (closed) when armed.
    public var sweep: Double
    public var opacity: Double

    /// The arc while pulling, Android's way: the arc grows from 40 % of the threshold to a
    /// maximum of 0.8 turn at the threshold, and turns with the pull, further past it.
    /// Armed, it closes to a full circle (and is drawn bolder, `IndicatorScene`): the
    /// change of state shows in the arc itself, not only in the words under it.
    public static func pulling(pull: Double, configuration c: RefreshController.Configuration, armed: Bool) -> ArcShape {
        let progress = pull / c.threshold
        let adjusted = min(1, max(0, progress - 0.4) * 5 / 3)
        let tension = max(0, progress - 1)
        let start = -0.25 + 0.4 * adjusted + 0.5 * min(tension, 2)
        // Fades in after the minimum pull, reaches 0.85 just below the threshold, and is
        // fully opaque only once armed, so "armed" is visible.
        let fadeIn = min(1, max(0, (pull - c.minimumPull) / max(1, 0.4 * c.threshold - c.minimumPull)))
        let opacity = armed ? 1 : fadeIn * (0.55 + 0.3 * adjusted)
        return ArcShape(start: start, sweep: armed ? 1 : max(0.01, 0.8 * adjusted), opacity: opacity)
    }

    /// The spinner, continuing from `initial` without a jump: it keeps turning and its
    /// length breathes between the initial sweep and a short arc (Material's 1332 ms cycle).
    public static func spinning(from initial: ArcShape, elapsed t: Double) -> ArcShape {
        let cycle = 1.332
        let phase = (1 - cos(2 * Double.pi * t / cycle)) / 2          // 0 at t = 0, smooth
        let sweep = initial.sweep + (0.1 - initial.sweep) * phase
        // Turn at a steady 0.75 turn/s; the tail catches up while the arc shortens.
        let start = initial.start + 0.75 * t + (initial.sweep - sweep)
        return ArcShape(start: start, sweep: sweep, opacity: 1)
    }
}
