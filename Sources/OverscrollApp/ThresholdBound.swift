import OverscrollKit

/// The refresh threshold is a visible pull, and a pull never reaches the height of the
/// list it pulls (the rubber band only approaches it): a threshold at or past the height
/// would leave a refresh that can never arm, so it is refused in words, not accepted.
enum ThresholdBound {
    /// - Parameter fillsScreen: the window takes the screen's size (a kiosk, fullscreen),
    ///   unknown until it opens; then only the kind's own bound applies.
    static func check(_ resolved: ResolvedSettings, flag: String?, file: ConfigFile?,
                      fillsScreen: Bool) throws(Failure) {
        guard !fillsScreen, let threshold = resolved.number(.threshold),
              let size = resolved.size(.size) else { return }
        // Turned a quarter, the list runs along the window's width.
        let quarter = resolved.number(.rotate).map { Int($0) % 180 == 90 } ?? false
        let height = quarter ? size.width : size.height
        guard threshold >= Double(height) else { return }
        let why = "it must be less than the list's height, \(height) pt (a pull never reaches it)"
        if flag == nil, let file, let origin = file.origins[.threshold] {
            throw Failure("\(TextLines.cut(origin.path)):\(origin.line): 'threshold' is out of range: \(why)", code: 78)
        }
        throw Failure("--threshold \(TextLines.cut(flag ?? String(threshold))) is out of range: \(why), e.g. --threshold 100", code: 64)
    }
}
