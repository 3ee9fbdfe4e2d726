import Testing
@testable import OverscrollKit

@Suite struct RefreshControllerTests {
    func controller(threshold: Double = 100) -> RefreshController {
        RefreshController(configuration: .init(threshold: threshold))
    }

    @Test func jitterAtTheLineGivesFeedbackOnce() {
        var c = controller()
        var feedback = 0
        for pull in [50.0, 99, 100.5, 99, 100.2, 98, 101, 90, 100, 86] {
            if c.handle(.drag(pull: pull)) == .feedback { feedback += 1 }
        }
        #expect(feedback == 1)
        #expect(c.state == .armed)
        // Falling through the hysteresis band and crossing again is a new crossing.
        _ = c.handle(.drag(pull: 80))
        #expect(c.state == .pulling(progress: 0.8))
        #expect(c.handle(.drag(pull: 100)) == .feedback)
    }

    @Test func releaseExactlyAtTheThresholdRefreshes() {
        var c = controller()
        #expect(c.handle(.drag(pull: 100)) == .feedback)
        #expect(c.handle(.release(at: 2)) == .startRefresh(generation: 1))
        #expect(c.state == .refreshing(generation: 1, since: 2))
        #expect(c.restingInset == RefreshController.Configuration.restingExtent)
    }

    @Test func releaseShortOfItCancels() {
        var c = controller()
        _ = c.handle(.drag(pull: 70))
        #expect(c.handle(.release(at: 1)) == nil)
        #expect(c.state == .idle)
    }

    @Test func aPullDuringARefreshDoesNothing() {
        var c = controller()
        _ = c.handle(.drag(pull: 150))
        _ = c.handle(.release(at: 0))
        #expect(c.handle(.drag(pull: 300)) == nil)
        #expect(c.handle(.release(at: 1)) == nil)
        #expect(c.state == .refreshing(generation: 1, since: 0))
    }

    @Test func theWatchdogEndsAHangingRefreshAtItsDeadline() {
        var c = RefreshController(configuration: .init(threshold: 100, timeout: 2))
        _ = c.handle(.drag(pull: 150))
        _ = c.handle(.release(at: 5))
        #expect(c.handle(.tick(now: 6.9, collapsed: true)) == nil)
        #expect(c.handle(.tick(now: 7.3, collapsed: false)) == .showError("Refresh timed out after 2 s"))
        #expect(c.state == .finishing(.failure("Refresh timed out after 2 s"), since: 7))
        #expect(c.handle(.completed(.success(["late"]), at: 7.4)) == nil)
        _ = c.handle(.tick(now: 7.5, collapsed: true))
        #expect(c.state == .idle)
    }

    @Test func aSecondCompletionChangesNothing() {
        var c = controller()
        _ = c.handle(.drag(pull: 150))
        _ = c.handle(.release(at: 0))
        #expect(c.handle(.completed(.success(["a"]), at: 1)) == .insertRows(["a"]))
        #expect(c.handle(.completed(.success(["b"]), at: 1.1)) == nil)
        #expect(c.handle(.completed(.failure("x"), at: 1.2)) == nil)
    }

    @Test func finishingWaitsForTheCollapse() {
        var c = controller()
        _ = c.handle(.drag(pull: 150))
        _ = c.handle(.release(at: 0))
        _ = c.handle(.completed(.failure("nope"), at: 1))
        _ = c.handle(.tick(now: 3, collapsed: false))
        #expect(c.state.name == "finishing")
        _ = c.handle(.tick(now: 3.1, collapsed: true))
        #expect(c.state == .idle)
    }

    @Test(arguments: [(300.0, 64.0), (800, 120), (1080, 140), (1920, 140)])
    func theDefaultThresholdFollowsTheScreen(height: Double, expected: Double) {
        #expect(RefreshController.Configuration.defaultThreshold(viewportHeight: height) == expected)
    }
}
