import CSDL
import Foundation
import Testing
@testable import OverscrollSDL

/// The console's wait for input (SDL's evdev driver has none and polls at 1 kHz): what
/// SDL's own wait returns, it returns — an event queued already, one pushed from another
/// thread while it sleeps (a refresh finished, a stop), and nothing when nothing comes.
extension SDLSuite { @Suite struct EvdevInputWaitTests {
    init() { SDL_InitSubSystem(SDL_INIT_EVENTS) }

    /// Drains what other suites left in SDL's queue.
    private func drain() {
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 {}
    }

    @Test func anEventPushedFromAnotherThreadWakesIt() throws {
        drain()
        let type = SDL_RegisterEvents(1)
        let wait = try #require(EvdevInputWait())
        let pusher = Thread {
            Thread.sleep(forTimeInterval: 0.1)
            var event = SDL_Event()
            event.type = type
            SDL_PushEvent(&event)
        }
        pusher.start()
        var event = SDL_Event()
        // Far longer than the push takes: the wait ends with the event, not the timeout.
        #expect(wait.wait(&event, timeoutMs: 20_000))
        #expect(event.type == type)
    }

    @Test func anEventQueuedAlreadyIsTakenAtOnce() throws {
        drain()
        let type = SDL_RegisterEvents(1)
        let wait = try #require(EvdevInputWait())
        var queued = SDL_Event()
        queued.type = type
        SDL_PushEvent(&queued)
        var event = SDL_Event()
        #expect(wait.wait(&event, timeoutMs: 20_000))
        #expect(event.type == type)
    }

    /// Nothing comes: the wait times out having slept, not woken again and again (SDL's
    /// pumps push a sentinel each, which is no event of anyone's).
    @Test func nothingComingIsATimeoutSlept() throws {
        drain()
        let wait = try #require(EvdevInputWait())
        var event = SDL_Event()
        #expect(!wait.wait(&event, timeoutMs: 300))
        #expect(wait.wakeups <= 1, "\(wait.wakeups) wake-ups")
    }
} }
