import Testing
@testable import OverscrollKit
import TestSupport

@Suite struct ProfilerVerdictTests {
    static let p60 = 1.0 / 60
    static let p144 = 1.0 / 144

    @Test(arguments: [
        // (interval in periods, missed vsyncs)
        (0.5, 0), (1.0, 0), (1.1, 0), (1.49, 0), (1.5, 1), (2.0, 1), (2.4, 1), (2.6, 2), (3.0, 2), (10.0, 9),
    ])
    func missedVsyncsRoundToWholePeriods(periods: Double, missed: Int) {
        for period in [Self.p60, Self.p144] {
            let v = FrameVerdict(timing: makeTiming(interval: periods * period), refreshPeriod: period)
            #expect(v.missedVsyncs == missed, "\(periods) periods of \(period)")
            #expect(v.janky == (missed >= 1))
        }
    }

    @Test func theSameIntervalIsJankyAt144HzButNotAt60() {
        let t = makeTiming(interval: 0.0167)
        #expect(!FrameVerdict(timing: t, refreshPeriod: Self.p60).janky)
        let at144 = FrameVerdict(timing: t, refreshPeriod: Self.p144)
        #expect(at144.janky)
        #expect(at144.missedVsyncs == 1)  // 0.0167 × 144 = 2.4 → 2 periods → 1 missed
    }

    @Test func brokenIntervalsMissNothing() {
        for interval in [0, -0.01, .nan, .infinity] {
            #expect(FrameVerdict(timing: makeTiming(interval: interval), refreshPeriod: Self.p60).missedVsyncs == 0)
        }
        #expect(FrameVerdict.missedVsyncs(interval: 0.1, refreshPeriod: 0) == 0)
    }

    @Test func overBudgetCountsCPUWorkAndPresentButNotTheGap() {
        // 1 + 2 + 9 + 1 = 13 ms of work: within 16.7, over 6.9.
        let t = makeTiming(input: 0.001, update: 0.002, render: 0.009, gap: 0.010, present: 0.001)
        #expect(abs(t.cpuTime - 0.013) < 1e-9)
        #expect(!FrameVerdict(timing: t, refreshPeriod: Self.p60).overBudget)
        #expect(FrameVerdict(timing: t, refreshPeriod: Self.p144).overBudget)
        let heavy = makeTiming(input: 0.001, update: 0.002, render: 0.013, present: 0.002)  // 18 ms
        #expect(FrameVerdict(timing: heavy, refreshPeriod: Self.p60).overBudget)
    }

    @Test func dominantPhaseIsTheLongest() {
        func dominant(_ i: Double, _ u: Double, _ r: Double, _ p: Double) -> FramePhase {
            FrameVerdict(timing: makeTiming(input: i, update: u, render: r, present: p), refreshPeriod: Self.p60).dominantPhase
        }
        #expect(dominant(0.004, 0.001, 0.001, 0.001) == .input)
        #expect(dominant(0.001, 0.004, 0.001, 0.001) == .update)
        #expect(dominant(0.001, 0.001, 0.004, 0.001) == .render)
        #expect(dominant(0.001, 0.001, 0.001, 0.004) == .present)
        // A tie goes to the earlier phase.
        #expect(dominant(0.001, 0.003, 0.003, 0.001) == .update)
    }

    @Test func phaseDurationsFollowTheTimestamps() {
        let t = makeTiming(start: 5, input: 0.001, update: 0.002, render: 0.003, gap: 0.004, present: 0.005)
        #expect(abs(t.duration(of: .input) - 0.001) < 1e-12)
        #expect(abs(t.duration(of: .update) - 0.002) < 1e-12)
        #expect(abs(t.duration(of: .render) - 0.003) < 1e-12)
        #expect(abs(t.duration(of: .present) - 0.005) < 1e-12)
        #expect(abs(t.cpuTime - 0.011) < 1e-12)
    }
}

@Suite struct ProfilerUIStateTests {
    @Test func statesFollowTheGesture() {
        var model = makeModel()
        let finger = PointerID(1)
        #expect(UIState(model: model) == .idle)

        // A finger drags up into the content: inside the range, so dragging.
        model.step([TimedInput(time: 0, event: .pointerDown(finger, x: 240, y: 500)),
                    TimedInput(time: 0.05, event: .pointerMove(finger, x: 240, y: 450))], to: 0.05)
        #expect(UIState(model: model) == .dragging)

        // A fast flick and release: the content coasts.
        model.step([TimedInput(time: 0.06, event: .pointerMove(finger, x: 240, y: 350)),
                    TimedInput(time: 0.07, event: .pointerMove(finger, x: 240, y: 250)),
                    TimedInput(time: 0.07, event: .pointerUp(finger))], to: 0.08)
        #expect(UIState(model: model) == .momentum)

        model.step([], to: 20)
        #expect(UIState(model: model) == .idle)
        #expect(model.scroll.offset > 0)

        // Back to the top, then pull down past it: overscroll wins over dragging.
        model.step([TimedInput(time: 20, event: .wheel(dy: -100_000))], to: 40)
        #expect(UIState(model: model) == .idle)
        model.step([TimedInput(time: 40, event: .pointerDown(finger, x: 240, y: 100)),
                    TimedInput(time: 40.2, event: .pointerMove(finger, x: 240, y: 400)),
                    TimedInput(time: 40.4, event: .pointerMove(finger, x: 240, y: 700))], to: 40.4)
        #expect(model.scroll.isDragging)
        #expect(UIState(model: model) == .overscrolled)

        // Released while armed: the refresh starts and wins over the overscroll it holds.
        model.step([TimedInput(time: 40.4, event: .pointerUp(finger))], to: 40.5)
        #expect(model.refresh.isRefreshing)
        #expect(UIState(model: model) == .refreshing)
    }
}
