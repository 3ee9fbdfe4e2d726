import Testing
@testable import OverscrollKit

/// A quick flick read the way SDL 2's KMSDRM driver reads touch: only when the loop pumps,
/// once a frame, each event stamped with the pump's millisecond. At any frame rate down to
/// 5 fps the list must fling, as it does when the events carry their own times.
@Suite struct PumpedInputTimesTests {
    @Test(arguments: [5.0, 7.5, 10, 24, 30, 60, 120])
    func aQuickFlickFlingsAtAnyFrameRateDownToFive(fps: Double) {
        for phase in stride(from: 0.0, to: 1, by: 0.1) {
            let speed = PumpedInputTimes.flingSpeed(fps: fps, phase: phase, spreading: true)
            // The finger moved at 2000 pt/s. Placed at the panel's slowest rate, what a late
            // pump read fits slower (a fifth of it at worst), but it flings: never lost.
            #expect(speed > 400, "\(fps) fps, phase \(phase): \(speed) pt/s")
        }
    }

    @Test func withoutSpreadingTheSameFlickIsLostAtFiveFps() {
        // The failure this mends: bursts at one instant each, 200 ms apart.
        #expect(PumpedInputTimes.flingSpeed(fps: 5, phase: 0.37, spreading: false) < 50)
    }

    @Test func inputsReadWhileAsleepKeepTheirOwnTimes() {
        var inputs = [
            TimedInput(time: 10.002, event: .pointerDown(PointerID(1), x: 0, y: 0)),     // woke the loop
            TimedInput(time: 10.010, event: .pointerMove(PointerID(1), x: 0, y: 5)),     // this pump's
            TimedInput(time: 10.010, event: .pointerMove(PointerID(1), x: 0, y: 9)),
        ]
        PumpedInputTimes.spread(&inputs, pumpedAt: 10.010, previousPump: 9.5)
        #expect(inputs.map(\.time) == [10.002, 10.002, 10.006])
    }

    @Test func aLoneLiftIsPlacedRightAfterThePreviousPump() {
        var inputs = [TimedInput(time: 2.2, event: .pointerUp(PointerID(1)))]
        PumpedInputTimes.spread(&inputs, pumpedAt: 2.2, previousPump: 2.0)
        #expect(inputs[0].time == 2.0)
    }
}
