import ConfigReader
import Foundation
import Testing

/// The reader against an independent one: every document of `TOMLCorpus` through
/// `TOMLReader` and through Python's `tomllib`, which must give the same verdict and, for
/// TOML within the reader's subset, the same values (compared as bytes and bits). Valid
/// TOML past the subset must be what tomllib reads and the reader refuses as "not
/// supported" (or past a limit). Issue 41 item 3: what TOML 1.0 rejects, both reject.
@Suite struct TOMLCorpusTests {
    enum Class: String { case valid, beyond, invalid }

    static let documents: [(bytes: [UInt8], expected: Class)] =
        TOMLCorpus.valid.map { (Array($0.utf8), .valid) } + TOMLCorpus.beyond.map { (Array($0.utf8), .beyond) }
        + TOMLCorpus.invalid.map { (Array($0.utf8), .invalid) } + TOMLCorpus.invalidBytes.map { ($0, .invalid) }

    /// The reader's verdict: the canonical values, or the failure.
    static func read(_ bytes: [UInt8]) -> Result<String, TOMLReader.Failure> {
        do {
            let entries = try TOMLReader.entries(bytes)
            return .success(entries.map { hex(Array($0.key.utf8)) + "=" + canonical($0.value) }.joined(separator: ";"))
        } catch {
            return .failure(error)
        }
    }

    /// The form both sides print a value in: strings as UTF-8 hex, floats as their bits.
    static func canonical(_ value: TOMLValue) -> String {
        switch value {
        case .string(let s): "s" + hex(Array(s.utf8))
        case .integer(let n): "i\(n)"
        case .float(let x): x.isNaN ? "fnan" : "f" + padded(String(x.bitPattern, radix: 16), 16)
        case .bool(let b): b ? "b1" : "b0"
        case .array(let items): "[" + items.map(canonical).joined(separator: ",") + "]"
        }
    }

    static func padded(_ s: String, _ width: Int) -> String { String(repeating: "0", count: max(0, width - s.count)) + s }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    static func shown(_ bytes: [UInt8]) -> String { String(reflecting: String(decoding: bytes, as: UTF8.self)) }

    @Test func theCorpusIsLargeAndCoversEveryClass() {
        #expect(Self.documents.count >= 150)
        #expect(TOMLCorpus.valid.count >= 60 && TOMLCorpus.beyond.count >= 20 && TOMLCorpus.invalid.count >= 60)
    }

    /// Without Python: the reader's verdict on each document is its class's.
    @Test func theReaderGivesEachDocumentItsClassesVerdict() {
        for (bytes, expected) in Self.documents {
            switch (Self.read(bytes), expected) {
            case (.success, .valid): break
            case (.failure(let f), .beyond):
                #expect(f.kind == .unsupported || f.kind == .limit, "\(Self.shown(bytes)): \(f.message)")
                #expect(f.message.contains("not supported") || f.kind == .limit, "\(Self.shown(bytes)): \(f.message)")
            case (.failure, .invalid):
                // Any refusal: a construct past the subset (`a = {`) is refused as such
                // before its own errors are looked for.
                break
            case (.success(let v), _):
                Issue.record("\(Self.shown(bytes)) (\(expected)) was read: \(v)")
            case (.failure(let f), .valid):
                Issue.record("\(Self.shown(bytes)) (valid) was refused: line \(f.line): \(f.message)")
            }
        }
    }

    /// With Python's tomllib: the same verdict and the same values on every document, and
    /// tomllib's own verdict is the document's class (the corpus is what it says it is).
    @Test(.enabled(if: Python.tomllib != nil, "needs python3 >= 3.11 (tomllib): script/bootstrap --test installs it"))
    func tomllibAndTheReaderAgreeOnEveryDocument() throws {
        let python = try #require(Python.tomllib)
        let verdicts = try Python.verdicts(Self.documents.map(\.bytes), python: python, depth: TOMLReader.Limits().depth)
        try #require(verdicts.count == Self.documents.count)
        var agreed = 0
        for ((bytes, expected), theirs) in zip(Self.documents, verdicts) {
            let ours = Self.read(bytes)
            var same = false
            switch (theirs.split(separator: " ", maxSplits: 1).first ?? "", ours) {
            case ("ok", .success(let values)):
                same = theirs == "ok " + values || theirs == "ok"  && values.isEmpty
                #expect(same, "\(Self.shown(bytes)): tomllib \(theirs), the reader ok \(values)")
            case ("beyond", .failure(let f)):
                same = f.kind == .unsupported || f.kind == .limit
                #expect(same, "\(Self.shown(bytes)): tomllib reads it past the subset, the reader says: \(f.message)")
            case ("error", .failure):
                same = true
            default:
                Issue.record("\(Self.shown(bytes)): tomllib \(theirs), the reader \(ours)")
            }
            let theirClass: Class = theirs.hasPrefix("ok") ? .valid : theirs.hasPrefix("beyond") ? .beyond : .invalid
            #expect(theirClass == expected, "\(Self.shown(bytes)) is \(theirClass) to tomllib, listed as \(expected)")
            if same { agreed += 1 }
        }
        #expect(agreed == Self.documents.count, "agreed on \(agreed) of \(Self.documents.count)")
    }
}

/// Documents from elsewhere (`TOML_CORPUS_DIR=/a/dir`, every file in it; toml-test's
/// `tests/` for one): the same agreement, for a batch this corpus has not seen. Without
/// the variable it is skipped, saying so.
@Suite struct TOMLOutsideCorpusTests {
    static let directory = ProcessInfo.processInfo.environment["TOML_CORPUS_DIR"]

    @Test(.enabled(if: directory != nil && Python.tomllib != nil, "set TOML_CORPUS_DIR to a directory of TOML documents (needs python3 with tomllib)"))
    func tomllibAndTheReaderAgreeOnADirectoryOfDocuments() throws {
        let dir = try #require(Self.directory), python = try #require(Python.tomllib)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        let documents = try names.map { Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + $0))) }
        let verdicts = try Python.verdicts(documents, python: python, depth: TOMLReader.Limits().depth)
        try #require(verdicts.count == documents.count)
        var agreed = 0
        for ((name, bytes), theirs) in zip(zip(names, documents), verdicts) {
            switch (theirs.split(separator: " ", maxSplits: 1).first ?? "", TOMLCorpusTests.read(bytes)) {
            case ("ok", .success(let values)) where theirs == "ok " + values || theirs == "ok" && values.isEmpty: agreed += 1
            case ("beyond", .failure(let f)) where f.kind == .unsupported || f.kind == .limit: agreed += 1
            case ("error", .failure): agreed += 1
            case (_, let ours): Issue.record("\(name): tomllib \(theirs.prefix(200)), the reader \(ours)")
            }
        }
        #expect(agreed == documents.count, "agreed on \(agreed) of \(documents.count)")
    }
}

/// python3 with tomllib, and a run of it over documents.
enum Python {
    /// The interpreter, when one with tomllib is installed.
    static let tomllib: String? = {
        for path in ["/usr/bin/python3", "/usr/local/bin/python3"] where FileManager.default.isExecutableFile(atPath: path) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: path)
            p.arguments = ["-c", "import tomllib"]
            p.standardError = FileHandle.nullDevice
            guard (try? p.run()) != nil else { continue }
            p.waitUntilExit()
            if p.terminationStatus == 0 { return path }
        }
        return nil
    }()

    /// For each document, one line: "ok <canonical values>" (`TOMLCorpusTests.canonical`'s
    /// form), "beyond" (valid TOML past the reader's subset) or "error <tomllib's message>".
    static let script = #"""
    import math, os, struct, sys, tomllib
    depth_limit = int(sys.argv[2])
    class Beyond(Exception): pass
    def canon(v, depth):
        if isinstance(v, bool): return 'b1' if v else 'b0'
        if isinstance(v, int):
            if not -2**63 <= v < 2**63: raise Beyond()
            return 'i%d' % v
        if isinstance(v, float): return 'fnan' if math.isnan(v) else 'f' + struct.pack('>d', v).hex()
        if isinstance(v, str):
            if '\0' in v: raise Beyond()
            return 's' + v.encode().hex()
        if isinstance(v, list):
            if depth >= depth_limit: raise Beyond()
            return '[' + ','.join(canon(x, depth + 1) for x in v) + ']'
        raise Beyond()   # a table, a date or a time
    names = sorted(os.listdir(sys.argv[1]))
    for name in names:
        data = open(os.path.join(sys.argv[1], name), 'rb').read()
        try:
            doc = tomllib.loads(data.decode('utf-8'))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
            print('error', str(e).replace('\n', ' '))
            continue
        try:
            if any('\0' in k for k in doc): raise Beyond()
            print(('ok ' + ';'.join(k.encode().hex() + '=' + canon(v, 0) for k, v in doc.items())).rstrip())
        except Beyond:
            print('beyond')
    """#

    static func verdicts(_ documents: [[UInt8]], python: String, depth: Int) throws -> [String] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("toml-corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (i, bytes) in documents.enumerated() {
            try Data(bytes).write(to: dir.appendingPathComponent(String(format: "%05d.toml", i)))
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = ["-c", script, dir.path, String(depth)]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}
