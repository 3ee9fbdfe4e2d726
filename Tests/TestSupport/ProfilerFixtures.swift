/// Frame-timing fixtures shared by the model's and the reports' tests.
import Foundation
import OverscrollKit
#if canImport(Glibc)
import Glibc
#endif

/// Deterministic pseudo-random numbers (SplitMix64): the same frames on every run.
public struct ProfilerTestRandom: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A frame with the given phase durations (seconds) laid end to end from `start`.
public func makeTiming(frame: Int = 0, start: Double = 100, input: Double = 0.001, update: Double = 0.002,
                render: Double = 0.003, gap: Double = 0, present: Double = 0.001,
                interval: Double = 1.0 / 60, latency: Double? = nil, state: UIState = .idle) -> FrameTiming {
    let inputDone = start + input
    let updateDone = inputDone + update
    let renderDone = updateDone + render
    let presentStart = renderDone + gap
    return FrameTiming(frame: frame, frameStart: start, inputDone: inputDone, updateDone: updateDone,
                       renderDone: renderDone, presentStart: presentStart, presentDone: presentStart + present,
                       interval: interval, latency: latency, state: state)
}

/// `count` frames at 60 Hz with jitter, a few janky ones (2–4 periods), CPU 3–12 ms,
/// latency on about half, states in runs; consecutive in time like a real loop.
public func syntheticRun(count: Int, seed: UInt64 = 42, period: Double = 1.0 / 60) -> [FrameTiming] {
    var rng = ProfilerTestRandom(seed: seed)
    var frames: [FrameTiming] = []
    frames.reserveCapacity(count)
    var t = 1000.0
    for i in 0..<count {
        var interval = period + Double.random(in: -0.0008...0.0008, using: &rng)
        if i % 97 == 13 { interval = period * Double(Int.random(in: 2...4, using: &rng)) }
        let input = Double.random(in: 0.0002...0.001, using: &rng)
        let update = Double.random(in: 0.0005...0.003, using: &rng)
        let render = Double.random(in: 0.002...0.007, using: &rng)
        let present = Double.random(in: 0.0003...0.0015, using: &rng)
        let latency: Double? = i % 2 == 0 ? Double.random(in: 0.008...0.040, using: &rng) : nil
        let state = UIState.allCases[(i / 250) % UIState.allCases.count]
        frames.append(makeTiming(frame: i, start: t, input: input, update: update, render: render,
                                 gap: 0.0005, present: present, interval: interval, latency: latency, state: state))
        t += interval
    }
    return frames
}

/// Nearest rank: the smallest value with at least p % of the values at or below it,
/// rank ⌈p/100 · n⌉ (less a hair, so 99.9 % of 5000 is rank 4995, not 4996 by rounding).
public func nearestRank(_ sorted: [Double], _ p: Double) -> Double {
    let rank = max(1, Int((p * Double(sorted.count) / 100 - 1e-9).rounded(.up)))
    return sorted[min(rank, sorted.count) - 1]
}

/// Polls `condition` every 20 ms until it holds or `timeout` passes.
public func pollUntil(timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = MonotonicClock.now() + timeout
    while MonotonicClock.now() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}
