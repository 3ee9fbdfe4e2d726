import Testing
@testable import OverscrollKit

/// One line reader for content, refresh output, scripts and configs.
struct LineReaderTests {
    private func lines(_ text: [UInt8]) -> [String] {
        TextLines.lines(of: text).map { "\($0.number):" + String(decoding: $0.bytes, as: UTF8.self) }
    }

    @Test func lfCrlfAndLoneCrEachEndOneLine() {
        #expect(lines(Array("a\nb\n".utf8)) == ["1:a", "2:b"])
        #expect(lines(Array("a\r\nb\r\n".utf8)) == ["1:a", "2:b"])
        #expect(lines(Array("a\rb\r".utf8)) == ["1:a", "2:b"])
        #expect(lines(Array("a\r\n\r\nb".utf8)) == ["1:a", "2:", "3:b"])
        #expect(lines(Array("a\n\rb".utf8)) == ["1:a", "2:", "3:b"], "LF then CR is two line ends")
    }

    @Test func aByteOrderMarkIsDroppedOnlyAtTheStart() {
        #expect(lines([0xEF, 0xBB, 0xBF] + Array("a\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("b".utf8))
                == ["1:a", "2:\u{FEFF}b"])
    }

    @Test func aCrlfSplitAcrossChunksIsOneLineEnd() {
        var splitter = LineSplitter()
        var seen: [String] = []
        let emit: (ArraySlice<UInt8>, Int) -> Bool = { seen.append("\($1):" + String(decoding: $0, as: UTF8.self)); return true }
        splitter.feed(Array("one\r".utf8), emit)
        splitter.feed(Array("\ntwo\r".utf8), emit)
        splitter.feed(Array("\nthree".utf8), emit)
        splitter.finish(emit)
        #expect(seen == ["1:one", "2:two", "3:three"])
    }

    @Test func nulShowsAsReplacementCharacterInRows() {
        #expect(TextLines.display([0x61, 0x00, 0x62]) == "a\u{FFFD}b")
    }

    @Test func scriptsParseTheSameWithEveryLineEndingAndKeepTheirLineNumbers() throws {
        let lf = try GestureScript(parsing: "down 10 20\nwait 1s\n\nmove 10 200 100ms\nup\n")
        for ending in ["\r\n", "\r"] {
            let text = "down 10 20\(ending)wait 1s\(ending)\(ending)move 10 200 100ms\(ending)up\(ending)"
            #expect(try GestureScript(parsing: text) == lf)
        }
        #expect(lf.lines.map(\.number) == [1, 2, 4, 5])
        #expect(throws: GestureScript.ParseError(line: 3, column: 1, message: "unknown command 'bogus'; expected wait, down, move, up, finger, mouse, wheel or key")) {
            try GestureScript(parsing: "wait 1s\r\nup\r\nbogus\r\n")
        }
    }

    @Test func aBinaryScriptIsRefusedAtItsLineAndColumn() {
        #expect(throws: GestureScript.ParseError.self) { try GestureScript(parsing: [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x00]) }
        do {
            _ = try GestureScript(parsing: Array("wait 1s\nup\u{0}x\n".utf8))
            Issue.record("a NUL byte was accepted")
        } catch {
            #expect(error.line == 2 && error.column == 3)
            #expect(error.message.contains("NUL"))
        }
    }

    @Test func anEchoedTokenIsCut() {
        let token = String(repeating: "x", count: 1_000_000)
        do {
            _ = try GestureScript(parsing: "wait \(token)")
            Issue.record("accepted")
        } catch {
            #expect(error.message.count < 200)
        }
    }

    @Test func aFingerLeftDownIsLiftedAtTheEnd() throws {
        let script = try GestureScript(parsing: "down 10 10\nfinger 2 down 20 20\nfinger 2 up\nmouse down 5 5\n")
        #expect(script.pointersLeftDown.map(\.line) == [1, 4])
        let lifted = script.liftingPointersLeftDown()
        #expect(lifted.pointersLeftDown.isEmpty)
        #expect(lifted.lines.count == script.lines.count + 2)
    }
}
