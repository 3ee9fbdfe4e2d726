import OverscrollKit
import Testing

/// A row's text costs what a row can show (issue 32): NULs, marks and zero-width runs from
/// outside are bounded before anything shapes them.
@Suite struct RowTextTests {
    @Test func nulsShowAsReplacementCharactersAndALongLineIsCut() {
        #expect(RowText.make([0x61, 0x00, 0x62]) == "a\u{FFFD}b")
        let nuls = RowText.make([UInt8](repeating: 0, count: 16 << 20))
        #expect(nuls.unicodeScalars.count == RowText.maxBytes)
        #expect(nuls.unicodeScalars.allSatisfy { $0 == "\u{FFFD}" })
        let ascii = RowText.make([UInt8](repeating: 0x61, count: 16 << 20))
        #expect(ascii.utf8.count == RowText.maxBytes)
    }

    @Test func aCutNeverSplitsACharacter() {
        // "é" is two bytes: an odd prefix puts the limit inside one.
        let text = "x" + String(repeating: "é", count: RowText.maxBytes)
        let row = RowText.make(Array(text.utf8))
        #expect(row.utf8.count == RowText.maxBytes - 1)
        #expect(!row.unicodeScalars.contains("\u{FFFD}"))
    }

    @Test func aLetterKeepsAFewOfItsMarksNotThreeHundredThousand() {
        let zalgo = "a" + String(repeating: "\u{0301}", count: 300_000) + "b"
        let row = RowText.make(Array(zalgo.utf8))
        #expect(row.unicodeScalars.first == "a")
        #expect(row.unicodeScalars.filter { $0 == "\u{0301}" }.count == RowText.maxMarks)
        // Vietnamese stacks two marks: kept as written.
        let stacked = "e\u{0323}\u{0302}"
        #expect(RowText.make(Array(stacked.utf8)).unicodeScalars.elementsEqual(stacked.unicodeScalars))
    }

    @Test func zeroWidthRunsAreBoundedAndTheTextAfterThemKept() {
        let row = RowText.make(Array((String(repeating: "\u{200B}", count: 1000) + "Hello").utf8))
        #expect(row == "\u{200B}\u{200B}Hello")
        // An emoji ZWJ sequence uses joiners one at a time: untouched.
        let family = "👩\u{200D}👩\u{200D}👧"
        #expect(RowText.make(Array(family.utf8)) == family)
    }
}
