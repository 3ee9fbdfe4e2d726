import OverscrollKit
/// The whole run's frame times at a fixed size, for frames.svg, on the run's own clock
/// (the model time frames.csv prints as `t_ms`): a fixed number of buckets, each an equal
/// slice of time. When time runs past the last bucket, neighbours are merged pairwise and
/// each bucket then covers twice as long, so a run of days costs the same memory as a run
/// of seconds while its min/max spikes survive every merge.
///
/// A frame is filed in the bucket its time falls in, and the slice it took (its interval,
/// back from its time) marks the buckets before as covered. A bucket neither holds a
/// frame nor is covered is a gap: time when nothing was drawn (the idle program sleeps).
public struct TimelineDownsampler: Sendable {
    public struct Bucket: Sendable, Equatable {
        /// Run time at the bucket's start and end (filled in by `forEach`).
        public var start = 0.0
        public var end = 0.0
        public var frames = 0
        /// Inside a frame's interval but holding no frame's end: drawn, not a gap.
        public var covered = false
        public var intervalMin = Double.infinity
        public var intervalMax = 0.0
        public var intervalSum = 0.0
        public var cpuMin = Double.infinity
        public var cpuMax = 0.0
        public var cpuSum = 0.0
        public var jankyFrames = 0
        /// The frames' phase times added up: input, update, render, present (seconds).
        public var phaseSums = SIMD4<Double>()
        /// Frames per UI state, indexed like `UIState.allCases`.
        public var stateFrames = SIMD8<Int>()

        public var intervalMean: Double { frames > 0 ? intervalSum / Double(frames) : 0 }
        public var cpuMean: Double { frames > 0 ? cpuSum / Double(frames) : 0 }
        /// The mean of each phase, as `phaseSums`.
        public var phaseMeans: SIMD4<Double> { frames > 0 ? phaseSums / Double(frames) : SIMD4() }
        /// False for a gap in the run: no frame was being drawn in this slice of time.
        public var isDrawn: Bool { frames > 0 || covered }

        /// The state most frames in the bucket were in (the earlier state on a tie).
        public var dominantState: UIState {
            var best = 0
            for i in 1..<UIState.allCases.count where stateFrames[i] > stateFrames[best] { best = i }
            return UIState.allCases[best]
        }

        mutating func absorb(_ other: Bucket) {
            frames += other.frames
            covered = covered || other.covered
            intervalMin = min(intervalMin, other.intervalMin)
            intervalMax = max(intervalMax, other.intervalMax)
            intervalSum += other.intervalSum
            cpuMin = min(cpuMin, other.cpuMin)
            cpuMax = max(cpuMax, other.cpuMax)
            cpuSum += other.cpuSum
            jankyFrames += other.jankyFrames
            phaseSums += other.phaseSums
            stateFrames &+= other.stateFrames
        }
    }

    private var storage: [Bucket]
    /// Buckets up to the last one a frame reached.
    public private(set) var count = 0
    /// Seconds each bucket covers: doubles at every merge.
    public private(set) var bucketSeconds: Double
    /// Run time at the first bucket's start: 0, where the run's clock starts (a first
    /// frame that claims to start earlier, a replay's at t = 0, is placed at 0).
    public let origin = 0.0
    /// Run time of the last frame.
    public private(set) var end = 0.0
    public private(set) var frames = 0
    public var capacity: Int { storage.count }

    /// - Parameters:
    ///   - capacity: buckets kept; rounded up to an even number (merging pairs).
    ///   - bucketSeconds: the first buckets' width; it doubles as the run grows.
    public init(capacity: Int = 512, bucketSeconds: Double = 0.001) {
        let even = max(2, capacity + (capacity & 1))
        storage = Array(repeating: Bucket(), count: even)
        self.bucketSeconds = bucketSeconds > 0 ? bucketSeconds : 0.001
    }

    /// Hot path: O(1) amortised, allocates nothing.
    /// - Parameter time: the frame's run time (`t_ms` / 1000); it never goes back.
    public mutating func add(time: Double, interval: Double, cpu: Double, janky: Bool, state: UIState,
                             phases: SIMD4<Double> = SIMD4()) {
        let interval = interval.isFinite ? max(0, interval) : 0
        let cpu = cpu.isFinite ? max(0, cpu) : 0
        var time = time.isFinite ? time : end
        time = max(time, end, origin)
        var index = self.index(of: time)
        while index >= storage.count {
            mergePairs()
            index = self.index(of: time)
        }
        // The frame's interval covers the buckets since the previous frame's; only new
        // ones are visited, so this is O(1) amortised however long the interval. Half an
        // interval of slack: a frame's time (taken at its start) and its interval (present
        // to present) jitter against each other, and that is not a gap.
        let from = max(self.index(of: max(time - 1.5 * interval, origin)), count)
        if from < index {
            for i in from..<index { storage[i].covered = true }
        }
        // In place through the array's modify accessor: no copy, no allocation.
        storage[index].record(interval: interval, cpu: cpu, janky: janky, state: state)
        // A phase that is not a finite, positive time adds nothing (a broken clock reading).
        let finite = phases.replacing(with: 0, where: .!(phases .>= 0 .& phases .< 1e9))
        storage[index].phaseSums += finite
        count = max(count, index + 1)
        end = time
        frames += 1
    }

    private func index(of time: Double) -> Int {
        let position = (time - origin) / bucketSeconds
        return position < Double(Int.max / 2) ? Int(position) : Int.max / 2
    }

    /// Halves the bucket count and doubles their width: O(capacity), once per doubling
    /// of the run's length.
    private mutating func mergePairs() {
        let half = storage.count / 2
        for i in 0..<half {
            var merged = storage[2 * i]
            merged.absorb(storage[2 * i + 1])
            storage[i] = merged
        }
        for i in half..<storage.count { storage[i] = Bucket() }
        count = (count + 1) / 2
        bucketSeconds *= 2
    }

    /// Visits the used buckets in time order, with their start and end filled in.
    public func forEach(_ body: (Bucket) throws -> Void) rethrows {
        for i in 0..<count {
            var b = storage[i]
            b.start = origin + Double(i) * bucketSeconds
            b.end = b.start + bucketSeconds
            try body(b)
        }
    }

    public var buckets: [Bucket] {
        var out: [Bucket] = []
        forEach { out.append($0) }
        return out
    }
}

extension TimelineDownsampler.Bucket {
    mutating func record(interval: Double, cpu: Double, janky: Bool, state: UIState) {
        frames += 1
        intervalMin = min(intervalMin, interval)
        intervalMax = max(intervalMax, interval)
        intervalSum += interval
        cpuMin = min(cpuMin, cpu)
        cpuMax = max(cpuMax, cpu)
        cpuSum += cpu
        if janky { jankyFrames += 1 }
        stateFrames[state.index] &+= 1
    }
}
