import CSDL
import CWayland
import OverscrollKit

/// `BufferChain` over Wayland's wl_shm (`CWayland`'s ovs_wl_shm_*): buffers in memory
/// shared with the compositor, attached to the window's wl_surface one at a time, the
/// compositor releasing each it no longer reads and calling back when a commit is shown.
final class WlShmChain: BufferChain {
    private let shm: OpaquePointer

    /// Buffers for the wl_surface `wlSurface` on the connection `connection`; nil, with
    /// `why`, where the compositor offers no shared memory SDL's pixels fit.
    init?(connection: UnsafeMutableRawPointer, wlSurface: UnsafeMutableRawPointer, why: inout String) {
        var reason = [CChar](repeating: 0, count: 160)
        guard let shm = ovs_wl_shm_create(connection, wlSurface, &reason, Int32(reason.count)) else {
            why = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return nil
        }
        self.shm = shm
        damageCut = Self.cutSDLDamage(wlSurface)
    }

    deinit {
        _ = ovs_wl_quiet_sdl_damage(nil)
        ovs_wl_shm_destroy(shm)
    }

    /// Whether SDL's own damage is cut from the surface's commits (`cutSDLDamage`).
    let damageCut: SDLTrick.State


    var most: Int { Int(ovs_wl_shm_most) }

    func waitFrame(timeoutMs: Int32) -> Bool { ovs_wl_shm_wait_frame(shm, timeoutMs) >= 0 }

    /// A wl_buffer starts at any pixel of its pool (`ovs_wl_shm_acquire`'s x and y): a
    /// turned screen's ring lies along its columns, written turned as it is drawn.
    var showsFromAnyPixel: Bool { true }

    func acquire(_ shape: BufferShape, most: Int32, timeoutMs: Int32) -> ChainBuffer? {
        var stride: Int32 = 0, index: Int32 = 0, fresh: Int32 = 0
        guard let pixels = ovs_wl_shm_acquire(shm, shape.columns, shape.width, shape.height, shape.rows, shape.x, shape.y,
                                              most, timeoutMs, &stride, &index, &fresh) else {
            return nil
        }
        return ChainBuffer(pixels: pixels, stride: Int(stride), index: Int(index), fresh: fresh != 0)
    }

    func damage(x: Int32, y: Int32, width: Int32, height: Int32) { ovs_wl_shm_damage(shm, x, y, width, height) }

    func commit() -> Bool { ovs_wl_shm_commit(shm) >= 0 }

    var broken: Bool { ovs_wl_shm_broken(shm) != 0 }

    /// The compositor's presentation clock (wp_presentation), asked once at the start.
    private var clock: PresentationClock {
        let id = ovs_wl_shm_presentation_clock(shm)
        return PresentationClock(id: id < 0 ? nil : id)
    }

    /// Commits the compositor said it discarded since the last presentation handed out.
    private var discarded = 0

    /// Each commit asks wp_presentation what becomes of it; 0 (nothing heard) where the
    /// compositor offers none or its clock is not CLOCK_MONOTONIC.
    var scanoutSequence: Int { clock.isMonotonic ? ovs_wl_shm_commit_sequence(shm) : 0 }

    /// The oldest presentation not handed out yet (a caller that wants them all asks
    /// again until nil: each frame's touch is paired with its own commit), waiting at
    /// most `waitingMs` while one is on its way. Discarded commits are passed over and
    /// counted (`Presentation.discardedBefore`).
    func lastShown(waitingMs: Int32) -> Presentation? {
        let clock = self.clock
        guard clock.isMonotonic else { return nil }
        var answer = ovs_wl_feedback()
        while ovs_wl_shm_take_feedback(shm, waitingMs, &answer) == 1 {
            let feedback = PresentationFeedback(answer)
            guard var shown = feedback.presentation(clock: clock) else {
                discarded += 1
                continue
            }
            shown.discardedBefore = discarded
            discarded = 0
            return shown
        }
        return nil
    }

    var scanoutClock: String? { clock.description }

    /// Buffers in use and releases seen, for tests.
    var buffers: Int { Int(ovs_wl_shm_buffers(shm)) }
    var releases: Int { ovs_wl_shm_releases(shm) }

    /// SDL's own whole-surface damage at its frame callbacks would ride in our commits
    /// (CWayland/sdldamage.c): cut where SDL's Wayland driver is one it was written for
    /// (SDL 2's own, SDL 3 up to 3.2) and its listener calls reach the program's
    /// wl_proxy_add_listener. Whether it is.
    private static func cutSDLDamage(_ wlSurface: UnsafeMutableRawPointer) -> SDLTrick.State {
        let sdl = SDLBuild.current()
        guard sdl.frameCallbacksDamage else {
            return .notApplied("written for SDL 2 and SDL 3 up to 3.2, whose frame callbacks it knows; \(sdl.description)'s are not assumed the same")
        }
        // SDL registered its registry's, seat's and surface's listeners by now: none seen
        // means its calls bind elsewhere (libwayland-client opened privately), and so
        // would its frame callbacks'.
        let seen = ovs_wl_listeners_passed_on()
        guard seen > 0 else { return .failed("\(sdl.description)'s listener calls do not reach the program's wl_proxy_add_listener") }
        guard ovs_wl_quiet_sdl_damage(wlSurface) != 0 else {
            return .failed("the window's wl_surface has no user data of SDL's to know its frame callbacks by")
        }
        return .inEffect("\(sdl.description)'s \(seen) listener registrations so far passed through the program's wl_proxy_add_listener; the window's frame callbacks get one that does nothing")
    }
}

extension PresentationFeedback {
    /// The C side's answer (`ovs_wl_feedback`).
    init(_ answer: ovs_wl_feedback) {
        self.init(sequence: answer.sequence,
                  outcome: answer.presented != 0
                      ? .presented(seconds: answer.seconds, nanoseconds: answer.nanoseconds, refreshNs: answer.refresh_ns,
                                   flags: PresentationFlags(rawValue: answer.flags))
                      : .discarded)
    }
}
