import PropertyBased
import Testing
@testable import OverscrollKit

/// Random gesture sequences, including fingers that never went down, NaN and far-away
/// coordinates, events out of order and jumps of minutes: the state stays finite, the
/// overscroll stays under one viewport, and everything comes to rest.
@Suite struct PropertyTests {
    static let step = zip(
        Gen.int(in: 0...6),                     // kind
        Gen.int(in: 1...3),                     // finger
        Gen.double(in: -3000...3000),           // y
        Gen.double(in: -0.05...0.6)             // time step (negative: out of order)
    )

    @Test func randomGesturesStayBoundedAndSettle() async {
        await propertyCheck(count: 300, input: Self.step.array(of: 1...60)) { steps in
            var model = makeModel()
            var t = 0.0
            for (kind, finger, y, dt) in steps {
                t += dt
                let id = PointerID(Int64(finger))
                let event: InputEvent = switch kind {
                case 0: .pointerDown(id, x: 10, y: y)
                case 1, 2: .pointerMove(id, x: 10, y: y)
                case 3: .pointerUp(id)
                case 4: .pointerMove(id, x: 10, y: kind == 4 && y > 2500 ? .nan : y * 1e6)
                case 5: .wheel(dy: y)
                default: .pointerCancel
                }
                model.step([TimedInput(time: t, event: event)], to: t)
                #expect(model.scroll.offset.isFinite && model.scroll.velocity.isFinite)
                #expect(model.scroll.overscroll < model.scroll.viewportHeight)
            }
            model.step([TimedInput(time: t, event: .pointerCancel)], to: t)
            model.step([], to: t + 120)     // long enough for any refresh, timeout and spring
            model.step([], to: t + 121)
            #expect(model.isSettled)
            #expect(model.scroll.range.contains(model.scroll.offset))
        }
    }
}
