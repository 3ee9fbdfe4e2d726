import Foundation
import RowSources
import Testing

/// The compiled-in sample is `Assets/content/sample.txt`: the file the package installs
/// and the rows the program shows by default cannot drift apart.
@Suite struct SampleRowsTests {
    static let file: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Assets/content/sample.txt").path
    }()

    @Test func theCompiledInTextIsTheAssetByteForByte() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.file))
        #expect(Data(SampleRows.text.utf8) == bytes)
    }

    @Test func itsRowsAreTheRowsTheFileGives() throws {
        let fromFile = try ContentFile.rows(fromFile: Self.file)
        #expect(SampleRows.rows == fromFile)
        #expect(SampleRows.rows.count == 100)
        #expect(SampleRows.rows.first == "001 · Old town walls")
    }
}
