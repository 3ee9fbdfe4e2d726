/// When each input happened, where SDL 2 does not say.
///
/// The console's input no longer comes this way: the SDL edge reads its devices itself,
/// each event with the kernel's time (`TimedInput.deviceTime`). This stays for what SDL
/// reads at its pumps (the console where its devices cannot be read otherwise).
///
/// SDL 2 stamps an event when it queues it, to the millisecond, not when it happened. Where
/// the driver reads its device only when the loop pumps (KMSDRM's evdev reader does, once
/// a frame), every touch of a frame gets the pump's stamp: at 60 fps that is at most a
/// frame late and the velocity tracker does not mind, but at the 5 fps a GPU-less kiosk
/// can fall to, a flick's moves arrive as one or two bursts 200 ms apart, each burst at a
/// single instant. The tracker then sees a gap (a new run) and no spread in time: the
/// fling is lost.
///
/// So the inputs one pump read are placed in the time since the previous pump, in their
/// order, from the start of that span, as a panel sends them: a moving finger is reported
/// at 60 Hz or faster, so they are spread evenly over the span but never further apart
/// than `longestReportInterval`. A flick whose lift came early in a frame is then not
/// stretched over the whole frame, and a lift read alone by the pump after the last move
/// keeps the flick's momentum (the finger left right after it moved, as in a flick) — a
/// hold shorter than one frame before the lift cannot be told from a flick at such a rate.
public enum PumpedInputTimes {
    /// The longest a touchscreen (or mouse) leaves between reports of a moving pointer.
    public static let longestReportInterval = 1.0 / 60

    /// Places the inputs stamped at or after `pump` (the stamp SDL gives what that pump
    /// read; `inputs` is in queue order, so they are the last ones) in the span from
    /// `previousPump` (or the latest earlier input, if later) up to `pump`, as above. Inputs stamped
    /// before it (read while the loop slept, each at its own time) keep their stamps.
    public static func spread(_ inputs: inout [TimedInput], pumpedAt pump: Double, previousPump: Double) {
        guard let first = inputs.firstIndex(where: { $0.time >= pump }) else { return }
        // Before the first pump nothing is known of the span: leave the stamps.
        var lower = previousPump.isFinite ? previousPump : pump
        for input in inputs[..<first] { lower = max(lower, input.time) }
        guard pump > lower else { return }
        let count = inputs.count - first
        let spacing = min((pump - lower) / Double(count), longestReportInterval)
        for k in 0..<count {
            inputs[first + k].time = lower + spacing * Double(k)
        }
    }
}

extension PumpedInputTimes {
    /// A quick flick read the way SDL 2 reads touch on KMSDRM: only when the loop pumps,
    /// once a frame at `fps`, each event stamped with the pump's millisecond; then placed
    /// by `spread` (or not) and played through a model. Returns the fling's speed after the
    /// lift (pt/s; 0: lost). The flick: `duration` seconds upwards at 2000 pt/s, a move every
    /// `reportInterval` s, the lift right after the last move; it starts `phase` (0…1) of a
    /// frame after a pump. What `overscroll-bench flick` prints and the tests check.
    public static func flingSpeed(fps: Double, phase: Double, duration: Double = 0.15,
                                  reportInterval: Double = 0.008, spreading: Bool = true) -> Double {
        let period = 1 / fps
        let finger = PointerID(1)
        var model = OverscrollModel(configuration: .init(viewportWidth: 480, viewportHeight: 800),
                                    rows: (0..<200).map { "Row \($0)" })
        // Mid-list, so the fling is free to run.
        var warm = [TimedInput(time: 0, event: .wheel(dy: 2000))]
        _ = model.frame(&warm, completions: [], to: 0)
        let t0 = 1 + phase * period
        var events = [TimedInput(time: t0, event: .pointerDown(finger, x: 240, y: 600))]
        var t = reportInterval
        while t <= duration + 1e-9 {
            events.append(TimedInput(time: t0 + t, event: .pointerMove(finger, x: 240, y: 600 - 2000 * t)))
            t += reportInterval
        }
        events.append(TimedInput(time: t0 + t - reportInterval + 0.003, event: .pointerUp(finger)))
        var pending = events[...]
        var previousPump = 1 - period
        var frame = 1.0
        var speed = 0.0
        while frame < t0 + duration + 1 {
            let pump = (frame * 1000).rounded(.down) / 1000
            var batch: [TimedInput] = []
            while let next = pending.first, next.time <= frame {
                batch.append(TimedInput(time: pump, event: next.event))
                pending = pending.dropFirst()
            }
            if spreading { spread(&batch, pumpedAt: pump, previousPump: previousPump) }
            previousPump = pump
            _ = model.frame(&batch, completions: [], to: frame)
            if pending.isEmpty, !model.scroll.isDragging { speed = max(speed, abs(model.scroll.velocity)) }
            frame += period
        }
        return speed
    }
}
