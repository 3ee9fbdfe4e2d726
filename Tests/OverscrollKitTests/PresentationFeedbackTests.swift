import Testing
@testable import OverscrollKit
import TestSupport

/// Wayland's wp_presentation answers, turned into presentations on CLOCK_MONOTONIC and
/// paired with the frame whose commit they answer.
@Suite struct PresentationFeedbackTests {
    static let monotonic = PresentationClock(id: 1)

    static func presented(_ sequence: Int, seconds: UInt64, nanoseconds: UInt32,
                          flags: PresentationFlags = [.vsync]) -> PresentationFeedback {
        PresentationFeedback(sequence: sequence,
                             outcome: .presented(seconds: seconds, nanoseconds: nanoseconds, refreshNs: 16_666_666, flags: flags))
    }

    @Test func aPresentedFrameOnTheMonotonicClockIsItsSecondsAndNanoseconds() throws {
        let shown = try #require(Self.presented(3, seconds: 5_000_000_123, nanoseconds: 250_000_000,
                                                flags: [.vsync, .hwClock]).presentation(clock: Self.monotonic))
        #expect(shown.sequence == 3)
        // tv_sec past 32 bits (the protocol's hi/lo pair) is kept whole.
        #expect(shown.time == 5_000_000_123.25)
        #expect(shown.flags == [.vsync, .hwClock])
    }

    @Test func anotherClockOrNoPresentationIsNotKnownNeverConverted() {
        let feedback = Self.presented(1, seconds: 100, nanoseconds: 0)
        for id: Int32 in [0, 4, 7] {
            let clock = PresentationClock(id: id)
            #expect(feedback.presentation(clock: clock) == nil)
            #expect(clock.description.hasPrefix("not known:"))
            #expect(clock.description.contains("not CLOCK_MONOTONIC"))
        }
        #expect(PresentationClock(id: 0).description.contains("CLOCK_REALTIME"))
        #expect(PresentationClock(id: nil).description == "not known: the compositor offers no wp_presentation")
        #expect(feedback.presentation(clock: PresentationClock(id: nil)) == nil)
        #expect(Self.monotonic.description.contains("CLOCK_MONOTONIC"))
        #expect(!Self.monotonic.description.hasPrefix("not known"))
    }

    @Test func aDiscardedFrameHasNoPresentation() {
        let discarded = PresentationFeedback(sequence: 2, outcome: .discarded)
        #expect(discarded.presentation(clock: Self.monotonic) == nil)
    }

    /// Frames 0…2 with touches, committed as 1…3: commit 2 discarded, 1 and 3 presented.
    /// Each value is its own frame's touch to its own commit's time; the discarded frame's
    /// touch is not given the next presentation's time.
    @Test func eachAnswerIsPairedWithTheFrameOfItsOwnCommit() throws {
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        let touches = [100.000, 100.017, 100.034]
        for (i, touch) in touches.enumerated() {
            var t = makeTiming(frame: i, start: touch + 0.001, state: .dragging)
            t.touchTime = touch
            t.scanoutSequence = i + 1
            profiler.record(t)
        }
        let answers = [
            Self.presented(1, seconds: 100, nanoseconds: 16_000_000),
            PresentationFeedback(sequence: 2, outcome: .discarded),
            Self.presented(3, seconds: 100, nanoseconds: 50_000_000),
        ]
        var completed: [(frame: Int, touchToScanout: Double)] = []
        for answer in answers {
            guard let shown = answer.presentation(clock: Self.monotonic) else { continue }
            if let c = profiler.presented(sequence: shown.sequence, at: shown.time) { completed.append(c) }
        }
        #expect(completed.map(\.frame) == [0, 2])
        #expect(abs(completed[0].touchToScanout - 0.016) < 1e-9)
        #expect(abs(completed[1].touchToScanout - 0.016) < 1e-9)
        #expect(profiler.overall.touchToScanoutPercentiles?.count == 2)
    }
}
