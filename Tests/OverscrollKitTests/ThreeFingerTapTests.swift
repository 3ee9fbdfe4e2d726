import Testing
@testable import OverscrollKit

@Suite struct ThreeFingerTapTests {
    func run(_ events: [(Double, InputEvent)]) -> Int {
        var tap = ThreeFingerTap()
        return events.filter { tap.observe(TimedInput(time: $0.0, event: $0.1)) }.count
    }
    let a = PointerID(1), b = PointerID(2), c = PointerID(3)

    @Test func threeFingersDownAndUpQuicklyIsATap() {
        #expect(run([(0, .pointerDown(a, x: 10, y: 10)), (0.02, .pointerDown(b, x: 50, y: 10)),
                     (0.03, .pointerDown(c, x: 90, y: 10)), (0.2, .pointerUp(b)), (0.21, .pointerUp(a)),
                     (0.22, .pointerUp(c))]) == 1)
    }

    @Test func aSlowOrMovingOrTwoFingerGestureIsNot() {
        #expect(run([(0, .pointerDown(a, x: 10, y: 10)), (0, .pointerDown(b, x: 50, y: 10)),
                     (0, .pointerDown(c, x: 90, y: 10)), (0.9, .pointerUp(a)), (0.9, .pointerUp(b)), (0.9, .pointerUp(c))]) == 0)
        #expect(run([(0, .pointerDown(a, x: 10, y: 10)), (0, .pointerDown(b, x: 50, y: 10)),
                     (0, .pointerDown(c, x: 90, y: 10)), (0.1, .pointerMove(a, x: 10, y: 200)),
                     (0.2, .pointerUp(a)), (0.2, .pointerUp(b)), (0.2, .pointerUp(c))]) == 0)
        #expect(run([(0, .pointerDown(a, x: 10, y: 10)), (0, .pointerDown(b, x: 50, y: 10)),
                     (0.1, .pointerUp(a)), (0.1, .pointerUp(b))]) == 0)
    }
}
