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

    @Test func aWordBehindAThousandZeroWidthSpacesIsDrawn() throws {
        let headless = try Headless()
        let plain = Self.row("Hello", headless)
        let hidden = Self.row(String(repeating: "\u{200B}", count: 1000) + "Hello", headless)
        #expect(TextRenderTests.ink(plain).count > 30)
        #expect(TextRenderTests.differing(plain, hidden) <= 10)
    }
} }
