import CSDL
import Foundation
import OverscrollKit
import Testing
@testable import OverscrollSDL

/// Text in any script, read back as pixels of the first row. These need the fallback fonts
/// that `script/bootstrap --test` installs (Noto Sans CJK, Noto Sans Devanagari, Noto Color
/// Emoji); DejaVu Sans alone draws boxes.
extension SDLSuite { @Suite struct TextRenderTests {
    /// The first row's band (row 0 of a list at rest), drawn with `text` as its only row.
    /// Each list is new and its first row has id 0: drop what the cache holds for id 0.
    static func firstRow(_ text: String, headless: Headless) -> Image {
        headless.painter.text.forget()
        var config = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800)
        config.refreshTimeout = 10
        let model = OverscrollModel(configuration: config, rows: [text])
        let full = headless.render(model)
        let band = Int(ListLayout().rowHeight * headless.scale)
        let image = Image(width: full.width, height: band, pixels: Array(full.pixels[0..<(full.width * band)]))
        // TEXT_DUMP=DIR keeps each drawn row as a PPM, to look at what a failing test saw.
        if let dir = ProcessInfo.processInfo.environment["TEXT_DUMP"] { image.writePPM("\(dir)/\(text.unicodeScalars.prefix(12).map { String($0.value, radix: 16) }.joined(separator: "_")).ppm") }
        return image
    }

    /// Pixels that are not the row's background: the text's ink.
    static func ink(_ image: Image) -> [(x: Int, y: Int)] {
        let background = RGB(Palette.rowEven)
        var points: [(x: Int, y: Int)] = []
        for y in 0..<image.height { for x in 0..<image.width where image.at(x, y).distance(background) > 60 { points.append((x, y)) } }
        return points
    }

    /// How many pixels of two same-sized images differ noticeably.
    static func differing(_ a: Image, _ b: Image) -> Int {
        var n = 0
        for y in 0..<a.height { for x in 0..<a.width where a.at(x, y).distance(b.at(x, y)) > 60 { n += 1 } }
        return n
    }

    @Test(arguments: [("東京", "大阪"), ("नमस", "कमल"), ("👍", "🎉")])
    func twoStringsOfOneScriptDoNotDrawAlike(pair: (String, String)) throws {
        let headless = try Headless()
        let a = Self.firstRow(pair.0, headless: headless), b = Self.firstRow(pair.1, headless: headless)
        #expect(Self.ink(a).count > 30, "'\(pair.0)' draws nothing")
        // The same number of missing-glyph boxes would draw alike; real glyphs do not.
        #expect(Self.differing(a, b) > 40, "'\(pair.0)' and '\(pair.1)' draw alike")
    }

    @Test func anArabicWordIsJoined() throws {
        let headless = try Headless()
        let joined = Self.firstRow("مرحبا", headless: headless)
        // The same letters kept apart with ZERO WIDTH NON-JOINER: isolated forms.
        let apart = Self.firstRow("م\u{200C}ر\u{200C}ح\u{200C}ب\u{200C}ا", headless: headless)
        #expect(Self.ink(joined).count > 30)
        #expect(Self.differing(joined, apart) > 40, "the Arabic word is drawn with its letters unjoined")
    }

    @Test(arguments: ["", "Café "])
    func hebrewDrawsRightToLeft(before: String) throws {
        let headless = try Headless()
        let word = Self.firstRow(before + "שלום", headless: headless)
        // Its letters in reverse order, forced left-to-right (LRO … PDF): the same picture,
        // also after a left-to-right word (one run shaped left-to-right would not be).
        let forced = Self.firstRow(before + "\u{202D}םולש\u{202C}", headless: headless)
        #expect(Self.ink(word).count > 30)
        #expect(Self.differing(word, forced) < 10, "Hebrew is not drawn right-to-left")
    }

    @Test func aRowStartingRightToLeftIsRightAligned() throws {
        let headless = try Headless()
        let inset = Int(ListLayout().textInset)
        for text in ["שלום עולם", "مرحبا بالعالم", "שלום Café"] {
            let ink = Self.ink(Self.firstRow(text, headless: headless))
            let maxX = ink.map(\.x).max() ?? 0, minX = ink.map(\.x).min() ?? 0
            #expect(maxX >= 480 - inset - 4 && maxX < 480 - inset + 2, "'\(text)' ends at x \(maxX)")
            #expect(minX > 240, "'\(text)' starts at x \(minX)")
        }
        // Starting with a Latin letter: left-aligned, even with right-to-left words after it.
        let mixed = Self.ink(Self.firstRow("Café שלום", headless: headless))
        let minX = mixed.map(\.x).min() ?? 0
        #expect(minX >= inset && minX <= inset + 3)
    }

    @Test func emojiAreInColourAtTheTextSize() throws {
        let headless = try Headless()
        let image = Self.firstRow("👍🏽", headless: headless)
        let ink = Self.ink(image)
        let coloured = ink.filter { let c = image.at($0.x, $0.y); return max(c.r, c.g, c.b) - min(c.r, c.g, c.b) > 60 }
        #expect(coloured.count > 30, "the emoji is not in colour")
        let height = (ink.map(\.y).max() ?? 0) - (ink.map(\.y).min() ?? 0)
        // About the size of a line of 17-point text, not the font's 109-pixel bitmap.
        #expect(height > 10 && height < 30, "emoji \(height) px tall")
    }

    // MARK: Long rows (issue 14): a row costs what the screen shows.

    @Test func aRowOfThousandsOfCharactersIsCutToTheWindowAndShowsItsStart() throws {
        let headless = try Headless()
        let start = "Row 1 starts here "
        for count in [3_000, 2_000_000] {
            let long = start + String(repeating: "x", count: count)
            let image = Self.firstRow(long, headless: headless)
            // No texture wider than the window was made (id 0 holds the long row now).
            let entry = try #require(headless.painter.text.row(0, text: long))
            #expect(entry.width <= 480)
            let short = Self.firstRow(start, headless: headless)
            // The start draws exactly as the short row does, left of where the short row ends.
            let shortInk = Self.ink(short)
            let shortEnd = shortInk.map(\.x).max() ?? 0
            #expect(shortInk.count > 50)
            var same = true
            for y in 0..<image.height { for x in 0..<(shortEnd - 4) where image.at(x, y).distance(short.at(x, y)) > 60 { same = false } }
            #expect(same, "a \(count)-character row does not show its start")
        }
    }

    @Test func aLongRightToLeftRowShowsItsStartAtTheRight() throws {
        let headless = try Headless()
        let long = "שלום " + String(repeating: "א", count: 100_000)
        let image = Self.firstRow(long, headless: headless)
        let short = Self.firstRow("שלום", headless: headless)
        let inset = Int(ListLayout().textInset)
        // The first word sits at the right edge in both.
        var same = true
        for y in 0..<image.height { for x in (480 - inset - 30)..<480 where image.at(x, y).distance(short.at(x, y)) > 60 { same = false } }
        #expect(same)
        #expect(Self.ink(short).map(\.x).max() ?? 0 >= 480 - inset - 4, "the start is not at the right")
        #expect(Self.ink(image).map(\.x).min() ?? 480 < 60, "the cut row does not fill the width")
    }

    @Test func aRowThatCannotBeDrawnIsNotTriedAgainEveryFrame() throws {
        let headless = try Headless()
        var config = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800)
        config.refreshTimeout = 10
        // Nothing visible to draw: SDL_ttf refuses a zero-width text.
        let model = OverscrollModel(configuration: config, rows: ["\u{200B}", "Visible"])
        _ = headless.render(model)
        let after = headless.painter.text.rasterizations
        for _ in 0..<5 { _ = headless.render(model) }
        #expect(after >= 1)
        #expect(headless.painter.text.rasterizations == after)
    }

    @Test func labelsAskedForEveryFrameOutliveWordsThatChange() throws {
        // The HUD's words change twice a second; the status line is asked for every frame.
        let headless = try Headless()
        let text = headless.painter.text
        _ = text.label("Refreshing…")
        let before = text.rasterizations
        for n in 0..<(3 * text.labelLimit) {
            _ = text.label("janky \(n) in last 2 s")
            _ = text.label("Refreshing…")
        }
        // One rasterization a changing word, none again for the status line.
        #expect(text.rasterizations - before == 3 * text.labelLimit)
        _ = text.label("janky 0 in last 2 s")
        #expect(text.rasterizations - before == 3 * text.labelLimit + 1, "the oldest word was not the one dropped")
    }
}
}
