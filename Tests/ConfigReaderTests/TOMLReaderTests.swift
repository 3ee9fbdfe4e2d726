import ConfigReader
import Foundation
import Testing

/// The reader on its own: its limits, its strictness and its values, each failure with
/// the line it names. The items are issue 41's.
@Suite struct TOMLReaderTests {
    func entries(_ text: String) throws(TOMLReader.Failure) -> [TOMLReader.Entry] {
        try TOMLReader.entries(Array(text.utf8))
    }

    func failure(_ text: String, limits: TOMLReader.Limits = .init()) -> TOMLReader.Failure? {
        do { _ = try TOMLReader.entries(Array(text.utf8), limits: limits); return nil } catch { return error }
    }

    // MARK: Item 1: bounded

    /// Item 1: 100,000 nested arrays (on one line, and one a line) are a limit error with
    /// a line, on a thread with a 256 KiB stack (`ulimit -s 256`'s main thread).
    @Test(arguments: [false, true])
    func aHundredThousandNestedArraysAreALimitErrorOnASmallStack(oneALine: Bool) throws {
        let open = oneALine ? "[\n" : "[", close = oneALine ? "]\n" : "]"
        let text = "a = " + String(repeating: open, count: 100_000) + String(repeating: close, count: 100_000)
        var limits = TOMLReader.Limits()
        limits.lineBytes = 1 << 20   // the depth, not the line, is the limit met here
        let bytes = Array(text.utf8), chosen = limits
        let result = Locked<TOMLReader.Failure?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do { _ = try TOMLReader.entries(bytes, limits: chosen) } catch let error as TOMLReader.Failure { result.set(error) } catch {}
            done.signal()
        }
        thread.stackSize = 256 << 10
        thread.start()
        done.wait()
        let f = try #require(result.get(), "100,000 nested arrays were read")
        #expect(f.kind == .limit)
        #expect(f.message.contains("nested more than 32 deep"))
        #expect(f.line == (oneALine ? 33 : 1))
    }

    @Test func aLineOrADocumentPastItsLimitIsRefusedWithItsLine() throws {
        var limits = TOMLReader.Limits()
        limits.lineBytes = 100
        limits.documentBytes = 1000
        let long = try #require(failure("a = 1\nb = \"" + String(repeating: "x", count: 200) + "\"\n", limits: limits))
        #expect(long.kind == .limit && long.line == 2 && long.message.contains("a line longer than"))
        #expect(failure("b = \"" + String(repeating: "x", count: 94) + "\"\n", limits: limits) == nil, "a line of 100 bytes")
        let big = try #require(failure(String(repeating: "# a comment line\n", count: 100), limits: limits))
        #expect(big.kind == .limit && big.message.contains("larger than") && big.line == 59)
        // The defaults: 1 MiB, 64 KiB a line, 32 deep.
        let defaults = TOMLReader.Limits()
        #expect(defaults.documentBytes == 1 << 20 && defaults.lineBytes == 64 << 10 && defaults.depth == 32)
        #expect(failure("a = " + String(repeating: "[", count: 200_000))?.kind == .limit)
    }

    // MARK: Item 2: no NUL, nothing cut

    /// Item 2: a NUL escape in any string, key or array is refused with its line, never
    /// read into a value (a path would end at it).
    @Test(arguments: [#"a = "x\u0000y""#, #"a = "\U00000000""#, #"a = ["ok", "x\u0000"]"#, #""k\u0000" = 1"#, #"a = """\u0000""""#])
    func aNulEscapeIsRefusedAsNotSupported(text: String) throws {
        let f = try #require(failure("\n" + text + "\n"))
        #expect(f.line == 2 && f.kind == .unsupported && f.message.contains("NUL"), "\(f)")
    }

    @Test func aLongValueIsReadWhole() throws {
        let long = String(repeating: "é", count: 20_000)
        #expect(try entries("a = \"\(long)\"").first?.value == .string(long))
        #expect(try entries("a = 9223372036854775807").first?.value == .integer(.max))
        #expect(failure("a = 9223372036854775808")?.kind == .unsupported)
    }

    // MARK: Item 3: strict

    /// Item 3: each accepted before; TOML 1.0 rejects every one.
    @Test(arguments: [
        ("a = \"bell\u{7}\"", 1, "U+0007"), ("\n# comment \u{1B}[2J", 2, "U+001B"), ("a = 'x\u{7F}'", 1, "U+007F"),
        (#"a = "\e""#, 1, "unknown escape '\\e'"), ("a = 1\rb = 2", 1, "carriage return"), ("a = 1\n\r", 2, "carriage return"),
        ("a = \"\"\"a\"\"\"\"\"\"", 1, "6 quotes"), ("a = '''a''''''", 1, "6 quotes"), ("\u{FEFF}a = 1", 1, "byte-order mark"),
    ])
    func whatTOMLRejectsIsRefusedWithItsLine(text: String, line: Int, words: String) throws {
        let f = try #require(failure(text), "\(String(reflecting: text)) was read")
        #expect(f.line == line && f.kind == .syntax && f.message.contains(words), "\(f)")
    }

    @Test func crlfIsALineEndAndReadsAsLF() throws {
        let e = try entries("a = 1\r\nb = \"\"\"\r\nx\r\ny\"\"\"\r\n\r\nc = 3\r\n")
        #expect(e.map(\.line) == [1, 2, 6])
        #expect(e[1].value == .string("x\ny"))
    }

    @Test func multiLineStringsCloseOnUpToFiveQuotes() throws {
        #expect(try entries("a = \"\"\"a\"\"\"\"\"").first?.value == .string("a\"\""))
        #expect(try entries("a = '''a''''").first?.value == .string("a'"))
        #expect(try entries("a = \"\"\"one \\\n   two\"\"\"").first?.value == .string("one two"))
        #expect(failure("a = \"\"\"a \\ b\"\"\"") != nil, "a backslash before a blank that ends no line")
    }

    @Test func numbersAreReadAsTOMLDefinesThem() throws {
        let e = try entries("a = 0xff\nb = 0o17\nc = 0b101\nd = 1_000\ne = -1.5e-3\nf = -inf\ng = 1e-7\nh = 1e20\n")
        #expect(e.map(\.value) == [.integer(255), .integer(15), .integer(5), .integer(1000), .float(-1.5e-3), .float(-.infinity), .float(1e-7), .float(1e20)])
        for bad in ["0x_ff", "1__0", "050", "1.", ".5", "0X1", "+0x1", "1e"] {
            #expect(failure("a = \(bad)")?.kind == .value, "\(bad)")
        }
    }

    // MARK: Item 4: what a value is, in words

    @Test func aWordWithoutQuotesNamesItselfAndItsKey() throws {
        let f = try #require(failure("\nflash = maybe\n"))
        #expect(f.line == 2 && f.kind == .value && f.key == "flash")
        #expect(f.message.contains("'maybe' is not a TOML value (text needs quotes)"), "\(f.message)")
    }

    // MARK: What is beyond the subset, refused as such

    @Test(arguments: ["[kiosk]", "[[runs]]", "a.b = 1", "a = { b = 1 }", "a = 1979-05-27", "a = 07:32:00"])
    func validTOMLNoSettingTakesIsNotSupported(text: String) throws {
        let f = try #require(failure("x = 1\n" + text))
        #expect(f.line == 2 && f.kind == .unsupported && f.message.contains("not supported"), "\(f)")
    }

    @Test func aValueWritesBackAsTOMLThatReadsToIt() throws {
        let values: [TOMLValue] = [
            .string("line\nbreak \u{1B}[31m \"quoted\" back\\slash \u{202E} \u{7F} tab\t"), .integer(.min),
            .float(1e-7), .float(1e20), .float(-0.0), .float(.infinity), .float(5e-324), .bool(true),
            .array([.string("a"), .array([.integer(1)])]),
        ]
        for value in values {
            let text = "a = " + value.toml
            #expect(!text.contains("\n") && !text.unicodeScalars.contains("\u{1B}"), "\(text)")
            let back = try entries(text).first?.value
            #expect(back == value, "\(text)")
            if case .float(let x)? = back, case .float(let y) = value { #expect(x.bitPattern == y.bitPattern) }
        }
    }
}

/// A value one thread sets and another reads.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func set(_ v: Value) { lock.lock(); value = v; lock.unlock() }
    func get() -> Value { lock.lock(); defer { lock.unlock() }; return value }
}
