import Histogram

/// One timing metric's distribution: an HdrHistogram of microseconds at 3 significant
/// digits (≤ 0.1 % quantisation), fixed range so recording never allocates.
struct MetricHistogram: Sendable {
    /// 60 s: longer stalls are not frames any more (Android ignores ≥ 10 s deltas). They
    /// are recorded as 60 s and counted in `clamped`, so they still show as the worst.
    static let highestMicroseconds: UInt64 = 60_000_000

    // UInt64 counts: a kiosk at 144 Hz for a year fits a UInt32 bucket, barely; do not bet on it.
    private(set) var histogram = Histogram<UInt64>(lowestDiscernibleValue: 1,
                                                   highestTrackableValue: highestMicroseconds,
                                                   numberOfSignificantValueDigits: .three)
    private(set) var clamped = 0
    /// The exact sum of what was recorded: HdrHistogram's own mean uses each bucket's
    /// middle, which can fall below the smallest value (16.664 for frames all 16.667 ms).
    private(set) var sumMicroseconds: UInt64 = 0

    var count: Int { Int(histogram.totalCount) }

    /// Records `seconds`, rounded to the microsecond like the CSV's 3-decimal milliseconds.
    mutating func record(seconds: Double) {
        var micros: UInt64 = 0
        if seconds.isNaN {
            clamped += 1
        } else if seconds > 0 {
            let scaled = (seconds * 1e6).rounded()
            if scaled >= Double(Self.highestMicroseconds) {
                micros = Self.highestMicroseconds
                clamped += 1
            } else {
                micros = UInt64(scaled)
            }
        }
        histogram.record(micros)
        sumMicroseconds &+= micros
    }

    /// The distribution in milliseconds; nil when nothing was recorded.
    ///
    /// `min`, `max` and `mean` are exact (of the values rounded to the microsecond). A
    /// percentile is HdrHistogram's `valueAtPercentile`: the nearest-rank value's bucket
    /// (3 significant digits, so at most 0.1 % wide), reported as the bucket's highest
    /// value and clamped to [min, max]. So min ≤ p50 ≤ … ≤ p99.9 ≤ max always, and a
    /// percentile is at most 0.1 % above the value that occurred at that rank, never below.
    func percentiles() -> MetricPercentiles? {
        guard histogram.totalCount > 0 else { return nil }
        let low = histogram.min, high = histogram.maxRecorded
        // valueAtPercentile clamps too; clamping here as well keeps the promise whatever
        // the library's version does.
        func ms(_ p: Double) -> Double { Double(Swift.min(Swift.max(histogram.valueAtPercentile(p), low), high)) / 1000 }
        let count = histogram.totalCount
        // Rounded division of an exact sum lies between the exact min and max.
        let mean = Swift.min(Swift.max(Double(sumMicroseconds) / Double(count), Double(low)), Double(high)) / 1000
        return MetricPercentiles(count: Int(count),
                                 min: Double(low) / 1000, p50: ms(50), p90: ms(90), p95: ms(95),
                                 p99: ms(99), p99_9: ms(99.9), max: Double(high) / 1000,
                                 mean: mean)
    }
}

/// A metric's distribution as the summary reports it, in milliseconds.
public struct MetricPercentiles: Sendable, Codable, Equatable {
    public var count: Int
    public var min: Double
    public var p50: Double
    public var p90: Double
    public var p95: Double
    public var p99: Double
    public var p99_9: Double
    public var max: Double
    /// Secondary: frame times are skewed, so the mean hides what the percentiles show.
    public var mean: Double

    public init(count: Int, min: Double, p50: Double, p90: Double, p95: Double, p99: Double,
                p99_9: Double, max: Double, mean: Double) {
        self.count = count
        self.min = min
        self.p50 = p50
        self.p90 = p90
        self.p95 = p95
        self.p99 = p99
        self.p99_9 = p99_9
        self.max = max
        self.mean = mean
    }

    /// Public: a summary read back decodes these keys one by one (FrameReports).
    public enum CodingKeys: String, CodingKey {
        case count, min, p50, p90, p95, p99, p99_9 = "p99.9", max, mean
    }
}
