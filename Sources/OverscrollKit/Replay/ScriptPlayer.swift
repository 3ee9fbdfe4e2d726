/// Turns a gesture script into timestamped input, as a 125 Hz touch panel would report
/// it: a `move` with a duration emits a sample every 8 ms of script time, whatever the
/// frame rate, and its last sample lands exactly on the target.
public struct ScriptPlayer: Sendable {
    public static let sampleInterval = 0.008

    public private(set) var timeline: [TimedInput]
    private var cursor = 0
    /// Added to every timestamp: where the current playthrough started.
    public private(set) var offset = 0.0
    /// When the last scripted input happens.
    public let endTime: Double

    public init(script: GestureScript) {
        var timeline: [TimedInput] = []
        var time = 0.0
        var positions: [GestureScript.Pointer: (x: Double, y: Double)] = [:]
        for line in script.lines {
            switch line.command {
            case .wait(let d):
                time += d
            case let .down(pointer, x, y):
                positions[pointer] = (x, y)
                timeline.append(TimedInput(time: time, event: .pointerDown(Self.id(pointer), x: x, y: y)))
            case let .move(pointer, x, y, duration):
                let from = positions[pointer] ?? (x, y)
                let steps = max(1, Int((duration / Self.sampleInterval).rounded(.up)))
                for i in 1...steps {
                    let last = i == steps
                    let dt = last ? duration : Double(i) * Self.sampleInterval
                    let f = duration > 0 ? dt / duration : 1
                    let sx = last ? x : from.x + (x - from.x) * f
                    let sy = last ? y : from.y + (y - from.y) * f
                    timeline.append(TimedInput(time: time + dt, event: .pointerMove(Self.id(pointer), x: sx, y: sy)))
                }
                time += duration
                positions[pointer] = (x, y)
            case .up(let pointer):
                positions[pointer] = nil
                timeline.append(TimedInput(time: time, event: .pointerUp(Self.id(pointer))))
            case .wheel(let dy):
                timeline.append(TimedInput(time: time, event: .wheel(dy: dy)))
            case let .key(key, modifiers):
                timeline.append(TimedInput(time: time, event: .key(key, modifiers)))
            }
        }
        self.timeline = timeline
        self.endTime = time
    }

    static func id(_ pointer: GestureScript.Pointer) -> PointerID {
        switch pointer {
        case .finger(let n): PointerID(Int64(n))
        case .mouse: .mouse
        }
    }

    public var isFinished: Bool { cursor >= timeline.count }

    /// When the current playthrough's last scripted input happens.
    public var currentEnd: Double { offset + endTime }

    /// The next input due at or before `time`, in order.
    public mutating func next(dueBy time: Double) -> TimedInput? {
        guard cursor < timeline.count, timeline[cursor].time + offset <= time else { return nil }
        defer { cursor += 1 }
        var input = timeline[cursor]
        input.time += offset
        return input
    }

    /// Play the script again from the start, shifted to begin at `time`.
    public mutating func restart(at time: Double) {
        cursor = 0
        offset = time
    }
}

