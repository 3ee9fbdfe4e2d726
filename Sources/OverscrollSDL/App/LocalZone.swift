#if canImport(Glibc)
import Glibc
#endif

/// The local time zone's offset from UTC at an instant, from the C library's zone (`TZ`,
/// else /etc/localtime), so a kiosk up for months tells the time of its place across DST
/// changes and a zone set while it runs (`timedatectl set-timezone`).
///
/// Why glibc and not a zone file parsed here: glibc already reads TZif files and their
/// POSIX-rule footers (Debian's files end their transitions early and rely on it), and
/// `localtime_r` gives the offset in force at any instant from what it has loaded, with
/// no I/O and no allocation: cheap enough for each frame. What it does not do is notice a
/// new zone: `localtime_r` never re-reads it. `tzset` does, when /etc/localtime changed
/// (glibc compares its inode and mtime); it is called at most every `rereadEvery` seconds,
/// one stat of a cached inode, so a new zone shows within a minute. A `TZ` variable is
/// fixed for the life of the process (glibc re-reads only when its text changes).
///
/// The offset is asked every frame but changes only at a whole second: it is worked out
/// once a second (`localtime_r` walks the zone's rules, about 1 % of a live frame's CPU
/// at 60 frames a second) and again after each re-read.
struct LocalZone {
    static let rereadEvery = 30.0
    private var lastRead = -Double.infinity
    /// The whole second last worked out, and its offset.
    private var second: time_t?
    private var secondOffset = 0.0

    /// Seconds east of UTC at `wall` (seconds since 1970), `monotonic` the time now for
    /// the re-read's cadence.
    mutating func offset(at wall: Double, monotonic: Double) -> Double {
        if monotonic - lastRead >= Self.rereadEvery {
            tzset()
            lastRead = monotonic
            second = nil
        }
        var seconds = time_t(wall.rounded(.down))
        if seconds == second { return secondOffset }
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return 0 }
        second = seconds
        secondOffset = Double(local.tm_gmtoff)
        return secondOffset
    }
}
