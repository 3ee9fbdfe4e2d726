import CSDL
import Testing
@testable import OverscrollSDL

/// The X server's word that the screen changed size (the root window's ConfigureNotify,
/// which SDL hands on only as SDL_SYSWMEVENT) is told from every other event, so the
/// window follows when the server says so, not at the next once-a-second look.
extension SDLSuite { @Suite struct ScreenFollowerTests {
    static let root: UInt = 0x4A5

    /// Whether a follower watching `root` takes the message for a screen change.
    static func noticed(subsystem: Int32 = CSDL_SYSWM_X11, type: Int32 = 22, window: UInt = root,
                        eventType: UInt32 = SDL_SYSWMEVENT.rawValue) throws -> Bool {
        let headless = try Headless(width: 64, height: 64)
        var follower = ScreenFollower(native: NativeDisplay(window: headless.display.window), root: root)
        var message = CSDL_WMMessage()
        message.subsystem = subsystem
        message.msg.any.type = type
        message.msg.any.window = window
        return withUnsafeMutablePointer(to: &message) { pointer in
            var event = SDL_Event()
            event.type = eventType
            event.syswm.msg = OpaquePointer(pointer)
            return follower.noticed(event)
        }
    }

    @Test func theRootWindowsConfigureNotifyIsAScreenChange() throws {
        #expect(try Self.noticed())
    }

    @Test func otherWindowsOtherEventsAndOtherServersAreNot() throws {
        #expect(try !Self.noticed(window: Self.root + 1))       // a window's own ConfigureNotify
        #expect(try !Self.noticed(type: 19))                    // MapNotify on the root
        #expect(try !Self.noticed(subsystem: CSDL_SYSWM_WAYLAND))
        #expect(try !Self.noticed(eventType: SDL_WINDOWEVENT.rawValue))
    }

    @Test func aFollowerNotWatchingNoticesNothing() throws {
        let headless = try Headless(width: 64, height: 64)
        var follower = ScreenFollower(native: NativeDisplay(window: headless.display.window), root: 0)
        var message = CSDL_WMMessage()
        message.subsystem = CSDL_SYSWM_X11
        message.msg.any.type = 22
        let noticed = withUnsafeMutablePointer(to: &message) { pointer in
            var event = SDL_Event()
            event.type = SDL_SYSWMEVENT.rawValue
            event.syswm.msg = OpaquePointer(pointer)
            return follower.noticed(event)
        }
        #expect(!noticed)
    }
} }
