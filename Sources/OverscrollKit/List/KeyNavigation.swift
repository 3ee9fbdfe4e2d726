/// A key the app reacts to, by SDL's name for it (`SDL_GetKeyName`), so gesture scripts
/// and the SDL layer spell keys the same way.
public enum Key: String, Sendable, CaseIterable {
    case up = "Up", down = "Down"
    case pageUp = "PageUp", pageDown = "PageDown"
    case space = "Space"
    case home = "Home", end = "End"
    case f5 = "F5"
    case r = "R"

    /// The key for an SDL key name, in any case (`pagedown`, `PageDown`).
    public init?(name: Substring) {
        guard let key = Key.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = key
    }
}

/// Modifier keys held with a key.
public struct KeyModifiers: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let shift = KeyModifiers(rawValue: 1 << 0)
    public static let ctrl = KeyModifiers(rawValue: 1 << 1)
}

/// What a key asks of the list, as a desktop list answers it: a row, a page (Space and
/// Shift+Space too, as in a browser), an end, or a refresh (F5, Ctrl+R).
public enum KeyCommand: Sendable, Equatable {
    /// Scroll by this many points (negative: towards the top).
    case scroll(by: Double)
    case toTop
    case toBottom
    case refresh

    /// The command for `key`, or nil for a key (or combination) that means nothing here.
    /// A page is the viewport less one row, so the row at the edge stays in view and the
    /// reader keeps their place (browsers keep a similar overlap).
    public static func command(for key: Key, modifiers: KeyModifiers, rowHeight: Double,
                               viewportHeight: Double) -> KeyCommand? {
        let page = max(rowHeight, viewportHeight - rowHeight)
        switch key {
        case .up: return .scroll(by: -rowHeight)
        case .down: return .scroll(by: rowHeight)
        case .pageUp: return .scroll(by: -page)
        case .pageDown: return .scroll(by: page)
        case .space: return .scroll(by: modifiers.contains(.shift) ? -page : page)
        case .home: return .toTop
        case .end: return .toBottom
        case .f5: return .refresh
        case .r: return modifiers.contains(.ctrl) ? .refresh : nil
        }
    }

    /// Where the content should come to rest: keys in a row add up (three quick Downs
    /// go three rows, from where the last one was going, not from where the content is
    /// mid-way), and the target never leaves the resting range.
    public func target(from base: Double, range: ClosedRange<Double>) -> Double? {
        let goal: Double
        switch self {
        case .scroll(let delta): goal = base + delta
        case .toTop: goal = range.lowerBound
        case .toBottom: goal = range.upperBound
        case .refresh: return nil
        }
        return min(max(goal, range.lowerBound), range.upperBound)
    }
}
