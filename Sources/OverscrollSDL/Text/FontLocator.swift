import CSDL
import Glibc

/// Finds the UI font: an explicit `--font`, else DejaVu Sans at Debian's path, else
/// whatever fontconfig matches for "DejaVu Sans" / "sans-serif" (asked through its
/// library, as `fc-match` would: no process, and it works where fc-match is not installed).
public enum FontLocator {
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    static let knownPaths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        "/usr/local/share/fonts/DejaVuSans.ttf",
    ]

    public static func locate(explicit: String?) throws(Missing) -> String {
        if let explicit {
            guard readable(explicit) else {
                let shown = explicit.count > 80 ? String(explicit.prefix(79)) + "…" : explicit
                throw Missing(description: "font '\(shown)' cannot be read; pass --font with the path of a readable .ttf file")
            }
            return explicit
        }
        for path in knownPaths where readable(path) { return path }
        for pattern in ["DejaVu Sans", "sans-serif"] {
            if let path = fcMatch(pattern), path.hasSuffix(".ttf") || path.hasSuffix(".otf"),
               readable(path) {
                return path
            }
        }
        throw Missing(description: "no UI font found; install one with 'apt-get install fonts-dejavu-core' or pass --font PATH")
    }

    private static func readable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    /// fontconfig's best match for `family`: the file of the pattern FcFontMatch returns.
    private static func fcMatch(_ family: String) -> String? {
        guard let config = FcInitLoadConfigAndFonts() else { return nil }
        defer { FcConfigDestroy(config) }
        return withPattern(family: family, config: config) { pattern in
            var result = FcResultMatch
            guard let match = FcFontMatch(config, pattern, &result) else { return nil }
            defer { FcPatternDestroy(match) }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
            return String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
        }
    }

    /// A pattern asking for `family`, with the configuration's and the default
    /// substitutions done, as FcFontMatch and FcFontSort take it (`fc-match` and
    /// `fc-match -s` build the same); destroyed when `body` returns.
    static func withPattern<T>(family: String, config: OpaquePointer, _ body: (OpaquePointer) -> T?) -> T? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        _ = family.withCString { FcPatternAddString(pattern, FC_FAMILY, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        _ = FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        return body(pattern)
    }
}
