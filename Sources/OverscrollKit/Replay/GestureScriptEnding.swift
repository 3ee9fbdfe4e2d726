extension GestureScript {
    /// Pointers still down when the script ends, each with the line it went down on. A
    /// replay would otherwise hold them for its whole settle limit (a minute of nothing).
    public var pointersLeftDown: [(pointer: Pointer, line: Int)] {
        var down: [Pointer: Int] = [:]
        for line in lines {
            switch line.command {
            case .down(let pointer, _, _): down[pointer] = line.number
            case .up(let pointer): down[pointer] = nil
            case .move, .wait, .wheel, .key: break
            }
        }
        return down.map { ($0.key, $0.value) }.sorted { $0.line < $1.line }
    }

    /// The script with an `up` appended for each pointer left down, so every gesture ends
    /// (and a repeated script starts each pass with no finger down).
    public func liftingPointersLeftDown() -> GestureScript {
        var script = self
        let end = (lines.last?.number ?? 0) + 1
        for (pointer, _) in pointersLeftDown { script.lines.append(Line(number: end, command: .up(pointer))) }
        return script
    }
}

extension GestureScript.Pointer: CustomStringConvertible {
    /// As the script spells it: `finger 2`, `mouse`.
    public var description: String {
        switch self {
        case .finger(let n): "finger \(n)"
        case .mouse: "mouse"
        }
    }
}
