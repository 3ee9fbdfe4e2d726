import Testing
@testable import OverscrollKit

@Suite struct ScrollViewTests {
    func view(content: Double = 5600) -> ScrollView {
        ScrollView(viewportHeight: 800, contentHeight: content)
    }
    let finger = PointerID(1)
    let band = RubberBand()

    @Test func aDragMovesTheContentOneToOne() {
        var s = view()
        s.pointerDown(finger, y: 600, at: 0)
        s.pointerMove(finger, y: 450, at: 0.1)
        #expect(s.offset == 150)
        s.pointerMove(finger, y: 300, at: 0.2)
        #expect(s.offset == 300)
    }

    @Test func pastTheTopItResistsAndPushingBackRetraces() {
        var s = view()
        s.pointerDown(finger, y: 100, at: 0)
        s.pointerMove(finger, y: 300, at: 0.1)
        #expect(abs(s.offset - -band.band(200, dimension: 800)) < 1e-9)
        s.pointerMove(finger, y: 500, at: 0.2)
        s.pointerMove(finger, y: 300, at: 0.3)
        #expect(abs(s.offset - -band.band(200, dimension: 800)) < 1e-9)
        s.pointerMove(finger, y: 100, at: 0.4)
        #expect(s.offset == 0)
    }

    @Test func aReleaseWhileOverscrolledSpringsBackToZero() {
        var s = view()
        s.pointerDown(finger, y: 100, at: 0)
        s.pointerMove(finger, y: 300, at: 0.5)
        s.pointerUp(finger, at: 1.0)        // after a pause: no fling, just the spring
        s.advance(to: 1.1)
        #expect(s.offset < 0 && s.offset > -96.7)
        s.advance(to: 3)
        #expect(s.offset == 0 && s.velocity == 0 && s.isAtRest)
    }

    @Test func grabbingDuringSpringBackContinuesWithoutAJump() {
        var s = view()
        s.pointerDown(finger, y: 100, at: 0)
        s.pointerMove(finger, y: 400, at: 0.5)
        s.pointerUp(finger, at: 1.0)
        s.advance(to: 1.12)
        let caught = s.offset
        s.pointerDown(PointerID(2), y: 250, at: 1.12)
        #expect(s.offset == caught)
        s.advance(to: 1.5)
        #expect(s.offset == caught)          // held: the spring stopped
        s.pointerMove(PointerID(2), y: 251, at: 1.6)
        #expect(abs(s.offset - caught) < 1)  // a 1 pt move moves it less than 1 pt (resisted)
        #expect(s.offset < caught)
    }

    @Test func aSecondFingerNeitherMovesNorReanchors() {
        var s = view()
        s.pointerDown(finger, y: 600, at: 0)
        s.pointerMove(finger, y: 500, at: 0.1)
        let second = PointerID(2)
        s.pointerDown(second, y: 100, at: 0.15)
        s.pointerMove(second, y: 700, at: 0.2)
        #expect(s.offset == 100)
        s.pointerMove(finger, y: 450, at: 0.25)
        #expect(s.offset == 150)
        // The driving finger lifts: the other takes over from where the content is.
        s.pointerUp(finger, at: 0.3)
        #expect(s.offset == 150 && s.isDragging)
        s.pointerMove(second, y: 650, at: 0.4)
        #expect(s.offset == 200)
        s.pointerUp(second, at: 0.9)
        #expect(!s.isDragging)
    }

    @Test func aFlingCarriesOnAndATouchStopsItWhereItIs() {
        var s = view()
        s.pointerDown(finger, y: 700, at: 0)
        for i in 1...10 { s.pointerMove(finger, y: 700 - Double(i) * 16, at: Double(i) * 0.008) }  // 2000 pt/s
        s.pointerUp(finger, at: 0.08)
        #expect(abs(s.velocity - 2000) < 1)
        s.advance(to: 0.5)
        let moving = s.offset
        #expect(moving > 160 + 400)
        s.pointerDown(finger, y: 300, at: 0.5)
        s.advance(to: 1.0)
        #expect(s.offset == moving && s.velocity == 0)
    }

    @Test func shortContentStillPullsAndSpringsBack() {
        var s = view(content: 300)
        s.pointerDown(finger, y: 500, at: 0)
        s.pointerMove(finger, y: 300, at: 0.2)
        #expect(s.offset > 0 && s.offset < 200)
        s.pointerUp(finger, at: 0.5)
        s.advance(to: 3)
        #expect(s.offset == 0)
    }

    @Test func aResizeKeepsTheOffsetValidWithoutAJump() {
        var s = view()
        s.scroll(by: 10_000, at: 0)
        #expect(s.offset == 4800)
        s.setViewportHeight(1000, at: 1)
        #expect(s.offset == 4800)              // no jump at the resize itself
        s.advance(to: 1.05)
        #expect(s.offset < 4800 && s.offset > 4600)
        s.advance(to: 3)
        #expect(s.offset == 4600)
    }

    @Test func brokenInputLeavesTheStateFinite() {
        var s = view()
        s.pointerMove(PointerID(9), y: 100, at: 0)        // never went down
        s.pointerUp(PointerID(9), at: 0)
        s.pointerDown(finger, y: .nan, at: 0.1)
        s.pointerDown(finger, y: 100, at: 0.2)
        s.pointerMove(finger, y: 1e300, at: 0.3)
        #expect(s.offset.isFinite && s.offset > -800)
        s.pointerMove(finger, y: -1e300, at: 0.1)          // out of order
        #expect(s.offset.isFinite && s.offset < 5600)
        s.pointerUp(finger, at: 0.35)
        s.advance(to: 1e6)                                   // a suspend of days
        #expect(s.isAtRest && s.range.contains(s.offset))
    }

    @Test func theInsetHoldsTheListOpenAndCollapsesSmoothly() {
        var s = view()
        s.pointerDown(finger, y: 100, at: 0)
        s.pointerMove(finger, y: 500, at: 0.5)
        s.pointerUp(finger, at: 1)
        s.setTopInset(64, at: 1)
        s.advance(to: 3)
        #expect(s.offset == -64)
        s.setTopInset(0, at: 3)
        #expect(s.offset == -64)
        s.advance(to: 3.1)
        #expect(s.offset > -64 && s.offset < 0)
        s.advance(to: 5)
        #expect(s.offset == 0)
    }

    /// A wheel notch while the list bounces back from a pull moves it smoothly.
    @Test func aWheelNotchDuringABounceDoesNotJump() throws {
        let samples = try replay("""
            down 240 150
            move 240 300 300ms
            up
            wait 50ms
            wheel 1
            wait 2s
            """, fps: 60)
        let moves = zip(samples.dropFirst(), samples).map { abs($0.offset - $1.offset) }
        #expect(moves.allSatisfy { $0 < 15 }, "\(moves.max()!)")
    }
}
