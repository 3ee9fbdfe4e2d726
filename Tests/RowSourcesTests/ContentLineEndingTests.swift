import Testing
@testable import RowSources

/// Content files go through the one line reader: every line ending gives the same rows.
struct ContentLineEndingTests {
    @Test func contentRowsAreTheSameForEveryLineEnding() throws {
        for ending in ["\n", "\r\n", "\r"] {
            let path = try writeTemporaryFile(Array("first\(ending)second\(ending)\(ending)third".utf8))
            #expect(try ContentFile.rows(fromFile: path) == ["first", "second", "third"], "ending \(Array(ending.utf8))")
        }
    }
}
