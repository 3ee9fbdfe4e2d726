import CDRM

/// The virtual terminal a console kiosk's screen belongs to (`CDRM`'s vt.c): held in
/// graphics mode while the program runs, switched away from and back by the kernel's
/// VT_PROCESS protocol (SIGUSR1, SIGUSR2), whose signals only set flags; the frame loop
/// answers them (`service`). Given back in text mode when this goes, also after SIGTERM
/// (the run ends through the ordinary exit path).
final class VirtualTerminal {
    private let handle: OpaquePointer
    let number: Int

    /// The VT on standard input (systemd's TTYPath=), else the controlling terminal;
    /// nil with `why` when the program is not on one (a pty, a serial line, no tty).
    init?(why: inout String) {
        var reason = [CChar](repeating: 0, count: 160)
        var taken = ovs_vt_take(0, &reason, Int32(reason.count))
        if taken == nil { taken = ovs_vt_take(-1, &reason, Int32(reason.count)) }
        guard let taken else {
            why = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return nil
        }
        handle = taken
        number = Int(ovs_vt_number(taken))
    }

    private var givenBack = false

    deinit { giveBack() }

    /// Text mode and automatic switching again; once.
    func giveBack() {
        guard !givenBack else { return }
        givenBack = true
        ovs_vt_give_back(handle)
    }

    /// Answers what the kernel asked: on a release the screen is let go (`release`: the
    /// DRM master dropped, another VT's program may take it), then the kernel is told; on
    /// an acquire the kernel is told first, then the screen is taken back (`acquire`,
    /// true when it was). True when the screen is ours again.
    func service(release: () -> Void, acquire: () -> Bool) -> Bool {
        guard !givenBack else { return false }
        var back = false
        while true {
            switch ovs_vt_pending(handle) {
            case 1:
                release()
                _ = ovs_vt_release_done(handle)
            case 2:
                _ = ovs_vt_acquire_done(handle)
                back = acquire() || back
            default:
                return back
            }
        }
    }
}
