import Foundation
import Testing
@testable import RowSources
@testable import OverscrollKit

struct ContentFileTests {
    @Test func oneRowPerLine() throws {
        #expect(try rows("first\nsecond\nthird\n") == ["first", "second", "third"])
    }

    @Test func lastLineWithoutNewline() throws {
        #expect(try rows("first\nsecond") == ["first", "second"])
    }

    @Test func crlfLineEndings() throws {
        #expect(try rows("first\r\nsecond\r\n") == ["first", "second"])
    }

    @Test func leadingBOMIsDropped() throws {
        #expect(try rows([0xEF, 0xBB, 0xBF] + Array("first\nsecond\n".utf8)) == ["first", "second"])
    }

    @Test func aBOMLaterInTheFileIsText() throws {
        #expect(try rows(Array("a\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("b\n".utf8)) == ["a", "\u{FEFF}b"])
    }

    @Test func emptyLinesAreSkipped() throws {
        #expect(try rows("\n\nfirst\n\r\n\nsecond\n\n") == ["first", "second"])
    }

    @Test func unicodeIsKept() throws {
        #expect(try rows("Ünïcödé ✓\n日本語\n🙂\n") == ["Ünïcödé ✓", "日本語", "🙂"])
    }

    @Test func invalidUTF8BecomesReplacementCharacters() throws {
        let bytes: [UInt8] = Array("good\n".utf8) + [0xFF, 0x41, 0xC3] + Array("\nafter\n".utf8)
        #expect(try rows(bytes) == ["good", "\u{FFFD}A\u{FFFD}", "after"])
    }

    @Test func moreThanMaxRowsIsCutWithANotice() throws {
        let text = (1...10).map { "row \($0)" }.joined(separator: "\n")
        // The notice is the last of the 3 rows.
        #expect(try rows(text, maxRows: 3) == ["row 1", "row 2", "… file cut at 3 rows"])
    }

    @Test func exactlyMaxRowsIsNotCut() throws {
        #expect(try rows("a\nb\nc\n\n", maxRows: 3) == ["a", "b", "c"])
    }

    @Test func moreThanMaxBytesIsCutWithANotice() throws {
        #expect(try rows("aaaa\nbbbb\ncccc\n", maxBytes: 12) == ["aaaa", "bbbb", "cc", "… file cut at 12 bytes"])
    }

    @Test func emptyFileIsAnError() throws {
        let path = try writeTemporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ContentFileError(path: path, reason: .empty)) { try ContentFile.rows(fromFile: path) }
    }

    @Test func fileOfOnlyEmptyLinesIsAnError() throws {
        let path = try writeTemporaryFile(Array("\n\r\n\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: ContentFileError.self) { try ContentFile.rows(fromFile: path) }
        #expect(error?.description
            == "content file '\(path)' has no rows; pass --content with a UTF-8 text file that has at least one non-empty line")
    }

    @Test func missingFileIsAnErrorNamingThePathAndTheFix() {
        let path = "/nonexistent/overscroll/rows.txt"
        let error = #expect(throws: ContentFileError.self) { try ContentFile.rows(fromFile: path) }
        #expect(error == ContentFileError(path: path, reason: .unreadable(errno: ENOENT)))
        #expect(error?.description == "content file '/nonexistent/overscroll/rows.txt' cannot be read: "
            + "No such file or directory; pass --content with a readable UTF-8 text file")
    }

    @Test func directoryIsAnError() {
        let error = #expect(throws: ContentFileError.self) { try ContentFile.rows(fromFile: "/tmp") }
        #expect(error?.reason == .unreadable(errno: EISDIR))
    }

    @Test func largeFileStopsReadingAtTheRowLimit() throws {
        // 200k rows in 64 KiB chunks: reading stops soon after row 5000.
        let text = String(repeating: "a row of text\n", count: 200_000)
        let result = try rows(text)
        #expect(result.count == 5000)
        #expect(result.last == "… file cut at 5000 rows")
    }

    // MARK: The shared row rules, fed in awkward chunks

    @Test func linesSplitAcrossChunksAreJoined() {
        var collector = RowCollector(source: "output", maxRows: 10)
        for piece in ["\u{FEFF}fi", "rst\r", "\nsec", "ond", "\n", "", "th", "ird"] {
            Array(piece.utf8).withUnsafeBytes { _ = collector.append($0) }
        }
        #expect(collector.finish() == ["first", "second", "third"])
    }

    @Test func aMultibyteCharacterSplitAcrossChunksSurvives() {
        var collector = RowCollector(source: "output", maxRows: 10)
        let bytes = Array("é✓\n".utf8)
        for byte in bytes { [byte].withUnsafeBytes { _ = collector.append($0) } }
        #expect(collector.finish() == ["é✓"])
    }

    @Test func appendSaysWhenItWantsNoMore() {
        var collector = RowCollector(source: "output", maxRows: 2)
        let wanted = ["a\n", "b\n", "c\n", "d\n"].map { piece in
            Array(piece.utf8).withUnsafeBytes { collector.append($0) }
        }
        #expect(wanted == [true, true, false, false])
        #expect(collector.finish() == ["a", "… output cut at 2 rows"])
    }

    @Test func aByteCutWithFullRowsStillFitsMaxRows() {
        var collector = RowCollector(source: "output", maxRows: 2, maxBytes: 5)
        Array("a\nbbbbbb".utf8).withUnsafeBytes { _ = collector.append($0) }
        #expect(collector.finish() == ["a", "… output cut at 5 bytes"])
    }

    @Test func aLimitOfOneRowIsJustTheNotice() {
        var collector = RowCollector(source: "file", maxRows: 1)
        Array("a\nb\n".utf8).withUnsafeBytes { _ = collector.append($0) }
        #expect(collector.finish() == ["… file cut at 1 row"])
    }

    // MARK: Helpers

    private func rows(_ text: String, maxRows: Int = 5000, maxBytes: Int = 16 << 20) throws -> [String] {
        try rows(Array(text.utf8), maxRows: maxRows, maxBytes: maxBytes)
    }

    private func rows(_ bytes: [UInt8], maxRows: Int = 5000, maxBytes: Int = 16 << 20) throws -> [String] {
        let path = try writeTemporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try ContentFile.rows(fromFile: path, maxRows: maxRows, maxBytes: maxBytes)
    }
}

/// A new file in the temporary directory (not executable); the caller removes it.
func writeTemporaryFile(_ bytes: [UInt8]) throws -> String {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("overscroll-test-\(UUID().uuidString)").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}
