import Testing
@testable import OverscrollKit
import RowSources

/// `Scene.rowMargin`: the rows beyond the window's top and bottom edges a display that
/// writes rows before they show (a turned screen's buffer, 16 rows at a time) asks for.
@Suite struct SceneRowMarginTests {
    @Test(arguments: [0.0, 20.0, 64.0, 130.0])
    func theSceneHoldsTheRowsWithinTheMarginOfEitherEdge(margin: Double) throws {
        // Scrolled into the content, a row cut by each edge.
        let (_, model) = try play("wheel 1030\nwait 100ms", fps: 60, model: makeModel(), source: DemoRefreshSource()) { _, _ in 0 }
        #expect(abs(model.scroll.offset - 1030) < 1e-9)
        var scene = Scene()
        scene.rowMargin = margin
        scene.update(model: model)
        let window = Scene(model: model)
        let h = scene.height, rowHeight = scene.rowHeight
        // Every row reaches into the window or the margin, and together they cover both.
        for row in scene.rows { #expect(row.y < h + margin && row.y + rowHeight > -margin, "row \(row.index) at \(row.y)") }
        let first = try #require(scene.rows.first), last = try #require(scene.rows.last)
        #expect(first.y <= -margin && last.y + rowHeight >= h + margin)
        // In order, one after another, the window's rows among them as they were.
        #expect(zip(scene.rows, scene.rows.dropFirst()).allSatisfy { $1.index == $0.index + 1 })
        #expect(window.rows.allSatisfy { row in scene.rows.contains(row) })
        if margin == 0 { #expect(scene.rows == window.rows) } else { #expect(scene.rows.count > window.rows.count) }
    }
}
