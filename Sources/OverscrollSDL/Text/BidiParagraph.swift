import CSDL

/// The Unicode bidirectional algorithm (fribidi) for one row: an embedding level per
/// character (odd = right-to-left) and the paragraph's direction, taken from its first
/// strong character as iOS's natural alignment does.
struct BidiParagraph {
    let levels: [Int8]
    let rightToLeft: Bool

    init(_ scalars: [UInt32]) {
        let count = scalars.count
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: count)
        var brackets = [FriBidiBracketType](repeating: 0, count: count)
        var levels = [FriBidiLevel](repeating: 0, count: count)
        var direction = CSDL_FRIBIDI_PAR_ON
        let ok = scalars.withUnsafeBufferPointer { text in
            fribidi_get_bidi_types(text.baseAddress, FriBidiStrIndex(count), &types)
            fribidi_get_bracket_types(text.baseAddress, FriBidiStrIndex(count), types, &brackets)
            return fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(count), &direction, &levels) != 0
        }
        // fribidi fails only on allocation; then the row is drawn left to right.
        self.levels = ok ? levels : [Int8](repeating: 0, count: count)
        rightToLeft = ok && direction == CSDL_FRIBIDI_PAR_RTL
    }

    /// Rule L2: the display order of runs with these levels — every maximal sequence at
    /// or above each odd level, from the highest down, is reversed.
    static func visualOrder(_ levels: [Int8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), let lowest = levels.min() else { return order }
        let lowestOdd = lowest | 1
        var level = highest
        while level >= lowestOdd {
            var i = 0
            while i < order.count {
                guard levels[order[i]] >= level else { i += 1; continue }
                var end = i
                while end < order.count, levels[order[end]] >= level { end += 1 }
                order[i..<end].reverse()
                i = end
            }
            level -= 1
        }
        return order
    }
}
