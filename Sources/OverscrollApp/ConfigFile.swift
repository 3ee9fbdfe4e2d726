import Glibc
import OverscrollKit

/// `--config FILE`: the same settings as the flags, in TOML, for a kiosk's unit file to
/// point at, then its drop-ins: every `FILE.d/*.toml`, in name order, each overriding
/// what came before (`/etc/overscroll/kiosk.toml.d/10-site.toml`), so a fleet's tools can
/// add settings without editing the operator's file. Every key is checked here, where
/// the file's line is known, so an unknown key or a bad value is an error naming the
/// file, the line, the key and what is allowed.
struct ConfigFile {
    let path: String
    /// The checked value of every key the files set; the keys are `Setting`s.
    private(set) var values: [Setting: SettingValue] = [:]
    /// The file and line each key was last set on, for messages about it later (a
    /// replay refusing it, `check-config` saying where a value came from).
    private(set) var origins: [Setting: (path: String, line: Int)] = [:]
    /// The files read, the main one first.
    private(set) var files: [String] = []

    init(path: String) throws(Failure) {
        self.path = path
        try read(path)
        for dropIn in try Self.dropIns(of: path) { try read(dropIn) }
    }

    /// `FILE.d/*.toml` in name order (byte order, as `ls` sorts in the C locale); none
    /// when there is no such directory.
    static func dropIns(of path: String) throws(Failure) -> [String] {
        let dir = path + ".d"
        var info = stat()
        guard stat(dir, &info) == 0 else { return [] }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw Failure("\(TextLines.cut(dir)) is not a directory; drop-ins for \(TextLines.cut(path)) go in a directory of that name", code: 78)
        }
        guard let stream = opendir(dir) else {
            throw Failure("drop-in directory \(TextLines.cut(dir)) cannot be read: \(String(cString: strerror(errno)))", code: 66)
        }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            // Hidden files and editors' backups (`10-site.toml~`) are not drop-ins.
            guard name.first != UInt8(ascii: "."), name.count > 5, name.suffix(5).elementsEqual(".toml".utf8) else { continue }
            names.append(name)
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }.map { dir + "/" + String(decoding: $0, as: UTF8.self) }
    }

    /// One file's keys, over those of the files before it.
    private mutating func read(_ path: String) throws(Failure) {
        files.append(path)
        let text = try Self.readText(path)
        let entries: [TOMLReader.Entry]
        do { entries = try TOMLReader.entries(text) } catch {
            throw Failure("\(TextLines.cut(path)):\(error.line): \(Echo.oneLine(Echo.cutTokens(error.message)))", code: 78)
        }
        for entry in entries {
            let (key, raw, line) = (entry.key, entry.value, entry.line)
            guard let setting = Setting(rawValue: key) else {
                let allowed = Setting.allCases.map(\.key).sorted().joined(separator: ", ")
                throw Failure("\(TextLines.cut(path)):\(line): unknown key '\(Echo.oneLine(TextLines.cut(key)))'; allowed keys: \(allowed)", code: 78)
            }
            guard case .success(let value) = setting.spec.kind.parse(toml: raw) else {
                throw Failure("\(TextLines.cut(path)):\(line): '\(key)' must be \(setting.spec.kind.allowed)", code: 78)
            }
            values[setting] = value
            origins[setting] = (path, line)
        }
    }

    /// A replay has no display: a window-only key in its config file is refused, not
    /// silently ignored (exit 78).
    func refuseWindowOnlySettings() throws(Failure) {
        for setting in Setting.allCases where setting.isWindowOnly && values[setting] != nil {
            let origin = origins[setting] ?? (path, 1)
            throw Failure("replay has no display; remove '\(setting.key)' from \(TextLines.cut(origin.path)):\(origin.line)", code: 78)
        }
    }

    /// The file as TOML text with LF line ends (CRLF and lone CR files then get the right
    /// line numbers from TOMLReader), through the one line reader.
    private static func readText(_ path: String) throws(Failure) -> String {
        let shown = TextLines.cut(path)
        let bytes: [UInt8]
        do { bytes = try InputFile.read(path, what: "config file", fix: "pass --config the path of a TOML file") } catch {
            // A missing file keeps its own words.
            if access(path, F_OK) != 0 {
                throw Failure("config file '\(shown)' does not exist; check the path given to --config", code: 66)
            }
            throw error
        }
        let lines = TextLines.lines(of: bytes)
        for line in lines {
            if String(validating: line.bytes, as: UTF8.self) == nil {
                throw Failure("\(shown):\(line.number): not UTF-8 text; save the config as UTF-8 TOML", code: 78)
            }
            if line.bytes.contains(0) {
                throw Failure("\(shown):\(line.number): a NUL byte; a config is a TOML text file (is this the right file?)", code: 78)
            }
        }
        return String(decoding: TextLines.normalized(bytes), as: UTF8.self)
    }
}

/// Splits a command line into words the way a POSIX shell would for simple cases:
/// whitespace separates, '…' and "…" quote, backslash escapes. No expansion of any kind:
/// the words become argv as they are.
enum ShellWords {
    struct Unbalanced: Error {}

    static func split(_ text: String) throws(Unbalanced) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for c in text {
            if escaped { current.append(c); escaped = false; inWord = true; continue }
            if let q = quote {
                if c == q { quote = nil } else if c == "\\" && q == "\"" { escaped = true } else { current.append(c) }
                continue
            }
            switch c {
            case "\\": escaped = true; inWord = true
            case "'", "\"": quote = c; inWord = true
            case " ", "\t", "\n":
                if inWord { words.append(current); current = ""; inWord = false }
            default: current.append(c); inWord = true
            }
        }
        guard quote == nil, !escaped else { throw Unbalanced() }
        if inWord { words.append(current) }
        return words
    }
}
