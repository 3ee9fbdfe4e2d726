import CSDL
import OverscrollKit
import Testing
@testable import OverscrollSDL

/// Text from outside drawn after `RowText` has bounded it (issue 32): the letter under
/// 300 000 combining marks is drawn where it is drawn alone, and a word behind 1000
/// zero-width spaces is drawn as the word, not as an ellipsis.
extension SDLSuite { @Suite struct BoundedTextRenderTests {
    static func row(_ text: String, _ headless: Headless) -> Image {
        TextRenderTests.firstRow(RowText.make(Array(text.utf8)), headless: headless)
    }

    @Test func aLetterUnderThreeHundredThousandMarksIsDrawnWhereItIsDrawnAlone() throws {
        let headless = try Headless()
        let alone = TextRenderTests.ink(Self.row("A", headless))
        let marked = TextRenderTests.ink(Self.row("A" + String(repeating: "\u{0301}", count: 300_000), headless))
        #expect(alone.count > 30)
        // The letter's own ink is all there (the marks add theirs above it).
        let markedSet = Set(marked.map { $0.y * 10_000 + $0.x })
        let kept = alone.filter { markedSet.contains($0.y * 10_000 + $0.x) }.count
        #expect(kept * 10 >= alone.count * 9, "\(kept) of the letter's \(alone.count) inked pixels")
        #expect(marked.map(\.x).min() == alone.map(\.x).min())
    }

    /// A stack of marks taller than the font's ascent made the text layer draw the whole
    /// line lower (3 px with three acute accents) and cut it at the bottom: the words after
    /// the letter must be drawn exactly where they are without the marks, and the letter too.
    @Test(arguments: [3, 5, 50])
    func theTextAroundALetterWithMarksStaysWhereItIsWithoutThem(marks: Int) throws {
        let headless = try Headless()
        let plain = Self.row("a then text", headless)
        let marked = Self.row("a" + String(repeating: "\u{0301}", count: marks) + " then text", headless)
        let letterEnd = try #require(TextRenderTests.ink(Self.row("a", headless)).map(\.x).max()) + 2
        func words(_ image: Image) -> Set<Int> {
            Set(TextRenderTests.ink(image).filter { $0.x > letterEnd }.map { $0.y * 10_000 + $0.x })
        }
        #expect(words(plain).count > 100)
        #expect(words(marked) == words(plain), "\(words(marked).subtracting(words(plain)).count) pixels differ")
        // The letter's ink is all there; the marks add theirs above it, within the row.
        let letter = Set(TextRenderTests.ink(plain).filter { $0.x < letterEnd }.map { $0.y * 10_000 + $0.x })
        let markedInk = TextRenderTests.ink(marked)
        #expect(letter.isSubset(of: Set(markedInk.map { $0.y * 10_000 + $0.x })))
        #expect(markedInk.filter { $0.x < letterEnd }.count > letter.count, "no mark drawn")
    }

    @Test func aWordBehindAThousandZeroWidthSpacesIsDrawn() throws {
        let headless = try Headless()
        let plain = Self.row("Hello", headless)
        let hidden = Self.row(String(repeating: "\u{200B}", count: 1000) + "Hello", headless)
        #expect(TextRenderTests.ink(plain).count > 30)
        #expect(TextRenderTests.differing(plain, hidden) <= 10)
    }
} }
