import OverscrollKit
/// The whole run's frame times at a fixed size, for frames.svg: a fixed number of buckets,
/// each covering a run of consecutive frames. When they are all full, neighbours are merged
/// pairwise and each bucket then covers twice as many frames, so a run of days costs the
/// same memory as a run of seconds while its min/max spikes survive every merge.
public struct TimelineDownsampler: Sendable {
    public struct Bucket: Sendable, Equatable {
        /// Run time (sum of intervals) at the bucket's first frame's start, and at its end.
        public var start = 0.0
        public var end = 0.0
        public var frames = 0
        public var intervalMin = Double.infinity
        public var intervalMax = 0.0
        public var intervalSum = 0.0
        public var cpuMin = Double.infinity
        public var cpuMax = 0.0
        public var cpuSum = 0.0
        public var jankyFrames = 0
        /// Frames per UI state, indexed like `UIState.allCases`.
        public var stateFrames = SIMD8<Int>()

        public var intervalMean: Double { frames > 0 ? intervalSum / Double(frames) : 0 }
        public var cpuMean: Double { frames > 0 ? cpuSum / Double(frames) : 0 }

        /// The state most frames in the bucket were in (the earlier state on a tie).
        public var dominantState: UIState {
            var best = 0
            for i in 1..<UIState.allCases.count where stateFrames[i] > stateFrames[best] { best = i }
            return UIState.allCases[best]
        }

        mutating func absorb(_ other: Bucket) {
            end = other.end
            frames += other.frames
            intervalMin = min(intervalMin, other.intervalMin)
            intervalMax = max(intervalMax, other.intervalMax)
            intervalSum += other.intervalSum
            cpuMin = min(cpuMin, other.cpuMin)
            cpuMax = max(cpuMax, other.cpuMax)
            cpuSum += other.cpuSum
            jankyFrames += other.jankyFrames
            stateFrames &+= other.stateFrames
        }
    }

    private var storage: [Bucket]
    public private(set) var count = 0
    public private(set) var framesPerBucket = 1
    /// Run time so far: the sum of the intervals recorded.
    public private(set) var elapsed = 0.0
    public var capacity: Int { storage.count }

    /// - Parameter capacity: buckets kept; rounded up to an even number (merging pairs).
    public init(capacity: Int = 512) {
        let even = max(2, capacity + (capacity & 1))
        storage = Array(repeating: Bucket(), count: even)
    }

    public mutating func add(interval: Double, cpu: Double, janky: Bool, state: UIState) {
        let interval = interval.isFinite ? max(0, interval) : 0
        let cpu = cpu.isFinite ? max(0, cpu) : 0
        if count == 0 || storage[count - 1].frames >= framesPerBucket {
            if count == storage.count { mergePairs() }
            storage[count] = Bucket(start: elapsed, end: elapsed)
            count += 1
        }
        elapsed += interval
        // In place through the array's modify accessor: no copy, no allocation.
        storage[count - 1].record(interval: interval, cpu: cpu, janky: janky, state: state, end: elapsed)
    }

    /// Halves the bucket count: O(capacity), once per `capacity/2 × framesPerBucket` frames.
    private mutating func mergePairs() {
        let half = storage.count / 2
        for i in 0..<half {
            var merged = storage[2 * i]
            merged.absorb(storage[2 * i + 1])
            storage[i] = merged
        }
        count = half
        framesPerBucket *= 2
    }

    /// Visits the used buckets in time order.
    public func forEach(_ body: (Bucket) throws -> Void) rethrows {
        for i in 0..<count { try body(storage[i]) }
    }

    public var buckets: [Bucket] { Array(storage[0..<count]) }
}

extension TimelineDownsampler.Bucket {
    mutating func record(interval: Double, cpu: Double, janky: Bool, state: UIState, end: Double) {
        self.end = end
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
