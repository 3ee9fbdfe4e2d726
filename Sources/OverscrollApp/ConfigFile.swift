import ConfigReader
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
    /// The files read, the main one first, as messages show them.
    private(set) var files: [String] = []

    init(path: String) throws(Failure) {
        self.path = path
        try read(path)
        for dropIn in try Self.dropIns(of: path) { try read(dropIn.shown, bytes: dropIn.bytes) }
    }

    /// A drop-in: its path as bytes, opened as such (a name need not be UTF-8), and as
    /// messages show it (bytes that are not UTF-8 as `\xHH`).
    struct DropIn {
        let bytes: [UInt8]
        let shown: String
    }

    /// `FILE.d/*.toml` in name order (byte order, as `ls` sorts in the C locale); none
    /// when there is no such directory. A directory that is there but cannot be read (a
    /// symlink loop, no permission) is an error in its own words, not "no drop-ins".
    static func dropIns(of path: String) throws(Failure) -> [DropIn] {
        let dir = path + ".d"
        let shown = TextLines.cut(dir)
        var info = stat()
        guard stat(dir, &info) == 0 else {
            let code = errno
            if code == ENOENT { return [] }
            throw Failure("drop-in directory \(shown) cannot be read: \(Self.reason(code)); fix it or remove it", code: 66)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw Failure("\(shown) is not a directory; drop-ins for \(TextLines.cut(path)) go in a directory of that name", code: 78)
        }
        guard let stream = opendir(dir) else {
            throw Failure("drop-in directory \(shown) cannot be read: \(Self.reason(errno)); fix it or remove it", code: 66)
        }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            // Hidden files and editors' backups (`10-site.toml~`) are not drop-ins.
            guard name.first != UInt8(ascii: "."), name.count > 5, name.suffix(5).elementsEqual(".toml".utf8) else { continue }
            names.append(name)
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }.map { name in
            DropIn(bytes: Array(dir.utf8) + [UInt8(ascii: "/")] + name, shown: dir + "/" + Self.shown(name))
        }
    }

    /// A file name's bytes as text: UTF-8 as it is, any other byte as `\xHH`, so two
    /// names never look the same and none is shown as another's.
    static func shown(_ name: [UInt8]) -> String {
        if let text = String(validating: name, as: UTF8.self) { return text }
        var out = "", index = 0
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = name.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                out.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                index += encoded.count
            case .error(let length):
                for byte in name[index..<index + length] { out += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true) }
                index += length
            case .emptyInput:
                return out
            }
        }
    }

    /// One file's keys, over those of the files before it.
    private mutating func read(_ path: String, bytes pathBytes: [UInt8]? = nil) throws(Failure) {
        files.append(path)
        let shown = TextLines.cut(path)
        let bytes = try Self.readBytes(path, pathBytes)
        let entries: [TOMLReader.Entry]
        do { entries = try TOMLReader.entries(bytes) } catch {
            throw Failure("\(shown):\(error.line): \(Echo.cutTokens(Self.explain(error)))", code: 78)
        }
        for entry in entries {
            let (key, raw, line) = (entry.key, entry.value, entry.line)
            guard let setting = Setting(rawValue: key) else {
                let allowed = Setting.allCases.map(\.key).sorted().joined(separator: ", ")
                throw Failure("\(shown):\(line): unknown key '\(TextLines.cut(key))'; allowed keys: \(allowed)", code: 78)
            }
            guard case .success(let value) = setting.spec.kind.parse(toml: raw) else {
                throw Failure("\(shown):\(line): '\(key)' must be \(setting.spec.kind.allowed), not \(TextLines.cut(raw.toml))", code: 78)
            }
            values[setting] = value
            origins[setting] = (path, line)
        }
    }

    /// The reader's message, and for a value no setting could take (a word without
    /// quotes, a date, a table) what the key's setting allows.
    static func explain(_ error: TOMLReader.Failure) -> String {
        guard error.kind == .value || error.kind == .unsupported, let key = error.key, let setting = Setting(rawValue: key) else {
            return error.message
        }
        return "'\(key)' must be \(setting.spec.kind.allowed): \(error.message)"
    }

    /// A replay has no display: a window-only key in its config file is refused, not
    /// silently ignored (exit 78).
    func refuseWindowOnlySettings() throws(Failure) {
        for setting in Setting.allCases where setting.isWindowOnly && values[setting] != nil {
            let origin = origins[setting] ?? (path, 1)
            throw Failure("replay has no display; remove '\(setting.key)' from \(TextLines.cut(origin.path)):\(origin.line)", code: 78)
        }
    }

    /// The file's bytes, through the one input reader (bounded, never waiting on a FIFO
    /// or a stalled mount); TOMLReader checks what they hold.
    private static func readBytes(_ path: String, _ pathBytes: [UInt8]?) throws(Failure) -> [UInt8] {
        do { return try InputFile.read(path, bytes: pathBytes, what: "config file", fix: "pass --config the path of a TOML file") } catch {
            // A missing file keeps its own words; a symlink loop or a permission error
            // keeps the system's (in the error).
            let missing = pathBytes.map { b in (b + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { access($0.baseAddress!, F_OK) } } }
                ?? access(path, F_OK)
            if missing != 0, errno == ENOENT {
                throw Failure("config file '\(TextLines.cut(path))' does not exist; check the path given to --config", code: 66)
            }
            throw error
        }
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case ELOOP: "\(String(cString: strerror(code))) (a symlink loop)"
        default: String(cString: strerror(code))
        }
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
