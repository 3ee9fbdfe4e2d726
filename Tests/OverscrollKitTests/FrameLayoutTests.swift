import Testing
@testable import OverscrollKit

/// The frame's layout in pixels: every number a backend draws at, from a scene in points.
@Suite struct FrameLayoutTests {
    /// A 480 × 800 pt scene: rows of 56 pt from `top`, a banner, the graph, a scroll bar,
    /// an indicator and its status line.
    static func scene(top: Double = -30, rows: Int = 16) -> Scene {
        var scene = Scene()
        scene.width = 480; scene.height = 800
        scene.rowHeight = 56; scene.textInset = 16
        scene.contentTop = top
        scene.contentBottom = top + Double(rows) * 56
        for i in 0..<rows {
            scene.rows.append(SceneRow(id: i, text: "Row \(i)", y: top + Double(i) * 56, index: i,
                                       emphasis: i == 3 ? .selected : .none, stripe: i % 2))
        }
        scene.banner = BannerScene(message: "server unreachable", opacity: 1)
        scene.scrollBar = ScrollBarScene(x: 472, y: 100.3, width: 4, height: 120.6, opacity: 0.8)
        scene.indicator = IndicatorScene(centerY: 40.25, radius: 14, thickness: 3.5, arc: .pulling(pull: 80, configuration: .init(threshold: 100), armed: false), scale: 1)
        scene.status = StatusScene(text: "Pull to refresh", centerY: 70.4, opacity: 1)
        var hud = HUDScene()
        hud.capacity = 120
        hud.samples = (0..<60).map { FrameProfiler.HUDSample(interval: $0 % 10 == 0 ? 0.04 : 0.0167, cpu: 0.004, janky: $0 % 10 == 0, state: .idle) }
        scene.hud = hud
        return scene
    }

    @Test(arguments: [1.0, 1.5, 2.0])
    func theWindowAndTheListLandOnWholePixels(scale: Double) {
        let layout = FrameLayout(Self.scene(), scale: scale)
        #expect(layout.width == Int32(480 * scale) && layout.height == Int32(800 * scale))
        // Scrolled into the content: no gap; the rows reach below the window.
        #expect(layout.listTop == 0 && layout.backgroundTop == layout.height)
        #expect(layout.rows.count == 16)
        for (i, row) in layout.rows.enumerated() {
            #expect(row.top == Int32(((-30 + Double(i) * 56) * scale).rounded(.down)))
            #expect(row.height == Int32((56 * scale).rounded()) && row.width == layout.width)
            // The separator: the band's last pixel rows, one per whole pixel of density.
            #expect(row.line == Int32(max(1, scale.rounded(.down))) && row.separator == row.top + row.height - row.line)
        }
        #expect(layout.rows[3].shade == .selected && layout.rows[4].shade == .even && layout.rows[5].shade == .odd)
        #expect(layout.textWidth == Int((480 - 32) * scale))
    }

    @Test func aPulledListLeavesAGapAboveAndItsBackgroundBelow() {
        let layout = FrameLayout(Self.scene(top: 100.7, rows: 3), scale: 2)
        #expect(layout.listTop == 201)
        #expect(layout.backgroundTop == Int32(((100.7 + 3 * 56) * 2).rounded(.down)))
        // A list pulled past the window's height: the gap is the whole window.
        #expect(FrameLayout(Self.scene(top: 900, rows: 3), scale: 1).listTop == 800)
    }

    @Test func aRowsTextIsCentredInItsBandAtItsInsetOrEndingAtTheRightOne() {
        let row = FrameLayout(Self.scene(), scale: 2).rows[2]
        let left = row.place(imageWidth: 200, imageHeight: 40, rightAligned: false)
        #expect(left.left == 32 && left.width == 200 && left.top == row.top + (112 - 40) / 2 && left.height == 40)
        let right = row.place(imageWidth: 200, imageHeight: 40, rightAligned: true)
        #expect(right.left == 960 - 32 - 200)
        // Wider than the window: cut at its edge; taller than the band: cut at the separator.
        let long = row.place(imageWidth: 2000, imageHeight: 200, rightAligned: false)
        #expect(long.width == 960 - 32 && long.top + long.height == row.separator)
    }

    /// Lines broken by a measure of 9 px a character at 1x (18 at 2x), 20 pt tall.
    static func wrap(_ message: String, _ width: Double, _ scale: Double) -> BannerText {
        BannerText(lines: LineBreaker.lines(of: message, width: width, maxLines: BannerLayout.maxLines) { Double($0.count) * 9 * scale },
                   lineHeight: Int32(20 * scale))
    }

    @Test(arguments: [1.0, 2.0], [480.0, 320.0])
    func theBannerIsAnOpaqueRoundedBoxAsTallAsItsLines(scale: Double, width: Double) throws {
        var scene = Self.scene()
        scene.width = width
        scene.banner = BannerScene(message: ListStrings().refreshFailed.replacing("{time}", with: "12:04"), opacity: 1)
        var layout = FrameLayout()
        layout.update(scene, scale: scale, wrap: Self.wrap)
        let banner = try #require(layout.banner)
        let s = Int32(scale)
        // 12 pt from the window's edges, 10 pt of padding around its lines.
        #expect(banner.box.x == 12 * s && banner.box.y == 12 * s && banner.box.w == Int32(width * scale) - 24 * s)
        #expect(banner.textWidth == Double(banner.box.w - 20 * s))
        #expect(banner.box.h == 20 * s + Int32(banner.lines.count) * 20 * s)
        // The sentence takes two lines at 480 pt and three at 320; every line fits.
        #expect(banner.lines.count == (width == 480 ? 2 : 3), "\(banner.lines)")
        #expect(banner.lines.joined(separator: " ") == scene.banner!.message)
        #expect(banner.lines.allSatisfy { Double($0.count) * 9 * scale <= banner.textWidth })
        #expect(banner.opacity == 1)
        // Opaque and rounded: the fills cover the box once, less its corners.
        let covered = banner.fills.reduce(0.0) { $0 + $1.w * $1.h }
        let area = Double(banner.box.w * banner.box.h), r = 10 * scale
        #expect(abs(covered - (area - (4 - Double.pi) * r * r)) < 4 * r, "covered \(covered) of \(area)")
        #expect(banner.fills.allSatisfy { $0.x >= Double(banner.box.x) && $0.x + $0.w <= Double(banner.box.x + banner.box.w) })
        let topRow = try #require(banner.fills.first { $0.y == Double(banner.box.y) })
        #expect(topRow.x >= Double(banner.box.x) + 3 * scale, "the top row starts \(topRow.x - Double(banner.box.x)) px in")
        // Each line centred on the window, never nearer the box's edge than the padding.
        let line = banner.lineOrigin(1, labelWidth: Int32(100 * scale))
        #expect(line.x == Int32(((width - 100) * scale / 2).rounded()) && line.y == banner.box.y + 10 * s + 20 * s)
        #expect(banner.lineOrigin(0, labelWidth: Int32(width * scale)).x == banner.box.x + 10 * s)
        #expect(layout.overlayRect(.banner) == banner.box)
    }

    @Test func lineBreakingKeepsWordsWholeAndEllipsizesWhatDoesNotFit() {
        let measure: (String) -> Double = { Double($0.count) }
        #expect(LineBreaker.lines(of: "aa bb cc", width: 5, maxLines: 3, measure: measure) == ["aa bb", "cc"])
        #expect(LineBreaker.lines(of: "aa bb cc dd ee ff", width: 5, maxLines: 2, measure: measure) == ["aa bb", "cc d…"])
        #expect(LineBreaker.lines(of: "abcdefgh ij", width: 5, maxLines: 3, measure: measure) == ["abcd…", "ij"])
        #expect(LineBreaker.lines(of: "  ", width: 5, maxLines: 3, measure: measure) == [])
    }

    /// As many lines as the width needs, about equally long: the banner's sentence never
    /// ends on a stray "to try again." (greedy filling gave "…Pull" / "to try again.").
    @Test(arguments: [26.0, 34, 40, 47, 52, 60])
    func linesAreBalanced(width: Double) {
        let message = "Couldn't refresh — showing rows from 12:04. Pull to try again."
        let measure: (String) -> Double = { Double($0.count) }
        let greedy = LineBreaker.lines(of: message, width: width, maxLines: 9) { measure($0) <= width ? measure($0) : .infinity }
        let lines = LineBreaker.lines(of: message, width: width, maxLines: 3, measure: measure)
        #expect(lines.joined(separator: " ") == message, "\(lines)")
        #expect(lines.allSatisfy { measure($0) <= width })
        // As few lines as filling to the width gives…
        #expect(lines.count <= max(1, min(3, greedy.count)))
        // …and none much shorter than the longest: within the longest word of each other.
        let lengths = lines.map(measure), longestWord = message.split(separator: " ").map { Double($0.count) }.max()!
        #expect(lengths.max()! - lengths.min()! <= longestWord + 1, "\(lines)")
    }

    @Test(arguments: [1.0, 2.0])
    func theIndicatorsDiscIsEightPointsWiderThanItsArcAndCentredOnAPixel(scale: Double) throws {
        let layout = FrameLayout(Self.scene(), scale: scale)
        let indicator = try #require(layout.indicator)
        #expect(indicator.discRadius == 22 * scale && indicator.ringRadius == 14 * scale && indicator.halfThickness == 1.75 * scale)
        #expect(indicator.centerX == 240 * scale && indicator.centerY == (40.25 * scale).rounded())
        // The square and the overlay's rectangle both hold the disc and its 1 px feather.
        let reach = indicator.discRadius + 1
        #expect(Double(indicator.left) <= indicator.centerX - reach && Double(indicator.top) <= indicator.centerY - reach)
        #expect(Double(indicator.left + indicator.side) >= indicator.centerX + reach)
        let bounds = try #require(layout.overlayRect(.indicator))
        #expect(Double(bounds.x) <= indicator.centerX - reach && Double(bounds.x + bounds.w) >= indicator.centerX + reach)
        #expect(Double(bounds.y) <= indicator.centerY - reach && Double(bounds.y + bounds.h) >= indicator.centerY + reach)
        // Moved by less than half a pixel: the same place; by a pixel: not.
        var scene = Self.scene()
        scene.indicator!.centerY += 0.1 / scale
        #expect(FrameLayout(scene, scale: scale).indicator!.samePlace(indicator))
        scene.indicator!.centerY += 1 / scale
        #expect(!FrameLayout(scene, scale: scale).indicator!.samePlace(indicator))
    }

    @Test(arguments: [1.0, 2.0])
    func theScrollBarIsACapsuleOfFillsInsideItsRectangle(scale: Double) throws {
        let layout = FrameLayout(Self.scene(), scale: scale)
        let bar = try #require(layout.scrollBar)
        let bounds = try #require(layout.overlayRect(.scrollBar))
        #expect(bounds == PixelRect.around(x: 472 * scale, y: 100.3 * scale, w: 4 * scale, h: 120.6 * scale))
        // The body, then a pair of rows for each pixel row of the rounded ends.
        let capRows = Int((2 * scale).rounded(.up))
        #expect(bar.fills.count == 1 + 2 * capRows && bar.opacity == 0.8)
        let top = (100.3 * scale).rounded(), bottom = top + (120.6 * scale).rounded()
        #expect(bar.fills.allSatisfy { $0.y >= top && $0.y + $0.h <= bottom && $0.x >= 472 * scale && $0.x + $0.w <= 476 * scale })
        #expect(bar.fills[1].w < bar.fills[0].w)          // the ends are narrower than the body
    }

    /// Two seconds of 60 Hz frames, three of them janky 40 ms ones; phases 1, 1, 2 and 1 ms
    /// (the render 40 ms on frame 110, past the graph's two budgets).
    static func graph(time: Double = 0, idle: Bool = false) -> HUDScene {
        var hud = HUDScene()
        hud.capacity = 120
        hud.samples = (0..<120).map {
            let slow = $0 == 30 || $0 == 70 || $0 == 110
            return FrameProfiler.HUDSample(interval: slow ? 0.040 : 1.0 / 60, cpu: $0 == 110 ? 0.012 : 0.003, janky: slow, state: .idle,
                                           input: 0.001, update: 0.001, render: $0 == 110 ? 0.040 : 0.002, present: 0.001)
        }
        hud.idle = idle
        hud.time = time
        return hud
    }

    @Test(arguments: [1.0, 2.0], [480.0, 320.0])
    func theHUDStacksThePhasesAgainstTheBudgetWithUnitsAndFits320Points(scale: Double, width: Double) throws {
        var scene = Self.scene()
        scene.width = width
        scene.hud = Self.graph()
        let layout = FrameLayout(scene, scale: scale)
        let hud = try #require(layout.hud)
        // 304 pt wide (at 320 pt: 8 pt either side), 208 tall, 8 pt from the bottom right.
        #expect(hud.panel == FillRect(x: (width - 304 - 8) * scale, y: (800 - 208 - 8) * scale, w: 304 * scale, h: 208 * scale))
        #expect(hud.panel.x >= 8 * scale - 1e-9)
        // 58 frames make the newest second (1.013 s): 57 fps. The last frame 16.7 ms; the
        // 119th of 120 intervals is a 40 ms one; three late of the 120. Units on every number.
        #expect(hud.lines.0 == "57 fps · last frame 16.7 ms")
        #expect(hud.lines.1 == "99 % of frames within 40.0 ms")
        #expect(hud.lines.2 == "3 late of the last 120 frames")
        // A path that hears nothing of the screen (the graph's default): said, not guessed.
        #expect(hud.lines.3 == "touch to glass: not known here")
        #expect(hud.budgetLabel == "16.7 ms" && hud.stripScaleLabel == "0–50 ms" && hud.stripLabel == "interval")
        // The phases stacked per frame, on a graph two budgets (33.3 ms) tall: 1 ms of
        // input at the bottom, update on it, render, present on top.
        let graphH = 48 * scale, perMs = graphH / (2000.0 / 60)
        #expect(hud.phaseBars.map(\.count) == [120, 120, 120, 119])
        let input = hud.phaseBars[0][0], update = hud.phaseBars[1][0], render = hud.phaseBars[2][0], present = hud.phaseBars[3][0]
        #expect(abs(input.h - perMs) < 1e-9 && abs(update.h - perMs) < 1e-9 && abs(render.h - 2 * perMs) < 1e-9)
        #expect(abs(update.y + update.h - input.y) < 1e-9 && abs(render.y + render.h - update.y) < 1e-9
                && abs(present.y + present.h - render.y) < 1e-9)
        // Frame 110's 42 ms does not fit: its render is cut at the top, its present not
        // drawn, and the cut is marked above the graph.
        let graphTop = hud.budgetLine.y - graphH / 2
        #expect(abs(hud.phaseBars[2][110].y - graphTop) < 1e-9)
        #expect(hud.clipMarks.count == 1 && hud.clipMarks[0].x == hud.phaseBars[0][110].x && hud.clipMarks[0].y < graphTop)
        // The budget line halfway up, its label in the column right of the bars.
        #expect(abs(input.y + input.h - hud.budgetLine.y - graphH / 2) < 1e-9)
        let label = hud.budgetLabelOrigin(labelHeight: Int32(20 * scale))
        #expect(label.x >= hud.budgetLine.x + hud.budgetLine.w && label.x + 60 * scale <= hud.panel.x + hud.panel.w)
        // Intervals in the strip below, 0…50 ms: a late 40 ms one four fifths of it, orange.
        #expect(hud.intervalBars.count == 117 && hud.jankBars.count == 3)
        #expect(abs(hud.jankBars[0].h - 0.8 * 36 * scale) < 1e-9 && hud.jankBars[0].y > hud.budgetLine.y)
        // The legend under it: four swatches across the panel.
        #expect(hud.legendSwatches.count == 4 && hud.legendSwatches.allSatisfy { $0.y > hud.jankBars[0].y + hud.jankBars[0].h })
        #expect(hud.legendSwatches[3].x + 70 * scale <= hud.panel.x + hud.panel.w)
        // The figures' lines above the graph, inside the panel.
        #expect(hud.lineOrigin(0).y == hud.panel.y + 6 * scale && hud.lineOrigin(3).y + 20 * scale <= graphTop)
        #expect(layout.overlayRect(.hud) == PixelRect.around(x: hud.panel.x, y: hud.panel.y, w: hud.panel.w, h: hud.panel.h))
    }

    @Test func theWordsChangeAtMostTwiceASecondButIdleAtOnce() throws {
        var scene = Self.scene()
        scene.hud = Self.graph(time: 10)
        var layout = FrameLayout(scene, scale: 1)
        #expect(layout.hud?.lines.0 == "57 fps · last frame 16.7 ms")
        // A slower last frame 0.2 s later: the words stay; 0.5 s after they were made, they change.
        var later = Self.graph(time: 10.2)
        later.samples[119].interval = 0.025
        scene.hud = later
        layout.update(scene, scale: 1)
        #expect(layout.hud?.lines.0 == "57 fps · last frame 16.7 ms")
        later.time = 10.5
        scene.hud = later
        layout.update(scene, scale: 1)
        #expect(layout.hud?.lines.0.hasSuffix("last frame 25.0 ms") == true)
        // The loop about to sleep (nothing moves): "at rest" at once.
        later.time = 10.6
        later.idle = true
        scene.hud = later
        layout.update(scene, scale: 1)
        #expect(layout.hud?.lines.0 == "at rest · last frame 25.0 ms")
    }

    /// The touch line: the newest touch-to-scanout on the graph and the 95th percentile of
    /// those on it; "no touch shown" on a path that knows but has shown none, "not known"
    /// on one that cannot know, whatever values a graph carries.
    @Test func theTouchLineSaysTheNewestAndP95OnlyWhereThePathKnows() throws {
        var scene = Self.scene()
        var graph = Self.graph(time: 10)
        graph.scanoutKnown = true
        scene.hud = graph
        var layout = FrameLayout(scene, scale: 1)
        #expect(layout.hud?.lines.3 == "touch to glass: no touch shown")
        // Twenty touches shown, 10…28 ms and the newest 12 ms: p95 (nearest rank, the 19th
        // of 20) is 27 ms. At once: a figure appearing changes what the line means.
        for k in 0..<19 { graph.samples[100 + k].touchToScanout = Double(10 + k) / 1000 }
        graph.samples[119].touchToScanout = 0.012
        graph.time = 10.1
        scene.hud = graph
        layout.update(scene, scale: 1)
        #expect(layout.hud?.lines.3 == "touch to glass 12.0 ms · p95 27.0 ms")
        // A new figure waits its turn (half a second), as the other words do.
        graph.samples[119].touchToScanout = 0.0154
        graph.time = 10.3
        scene.hud = graph
        layout.update(scene, scale: 1)
        #expect(layout.hud?.lines.3 == "touch to glass 12.0 ms · p95 27.0 ms")
        graph.time = 10.6
        scene.hud = graph
        layout.update(scene, scale: 1)
        #expect(layout.hud?.lines.3 == "touch to glass 15.4 ms · p95 27.0 ms")
        // The same samples on a path that cannot know: no figure.
        graph.scanoutKnown = false
        graph.time = 10.7
        scene.hud = graph
        layout.update(scene, scale: 1)
        #expect(layout.hud?.lines.3 == "touch to glass: not known here")
    }


    @Test func theStatusLineIsCutOffWhereTheListBegins() throws {
        var scene = Self.scene(top: 80, rows: 3)
        let status = try #require(FrameLayout(scene, scale: 1).status)
        // Centred on pixel row 70: a 20 px line from row 60, cut at the list's top (80).
        #expect(status.rect(labelWidth: 120, labelHeight: 20) == PixelRect(x: 180, y: 60, w: 120, h: 20))
        #expect(status.rect(labelWidth: 120, labelHeight: 30) == PixelRect(x: 180, y: 55, w: 120, h: 25))
        scene.contentTop = 50
        #expect(FrameLayout(scene, scale: 1).status!.rect(labelWidth: 120, labelHeight: 20) == nil)
        scene.status!.opacity = 0
        #expect(FrameLayout(scene, scale: 1).status == nil)
    }

    @Test func onlyChangedOverlaysAreNamedAndTheirRectanglesJoinOldAndNew() {
        #expect(FrameLayout(Scene(), scale: 1).overlayRect(.banner) == nil)
        let a = FrameLayout(Self.scene(), scale: 1)
        var moved = Self.scene()
        moved.scrollBar!.y += 40
        let b = FrameLayout(moved, scale: 1)
        let old = a.overlayRect(.scrollBar)!, new = b.overlayRect(.scrollBar)!
        #expect(new.y == old.y + 40 && old.union(new).h == old.h + 40)
    }

    /// A layout updated in place from one scene to another is the layout made afresh.
    @Test func updatingInPlaceGivesTheLayoutMadeAfresh() {
        var layout = FrameLayout(Self.scene(), scale: 2)
        var other = Self.scene(top: 120, rows: 5)
        other.banner = nil; other.hud = nil
        layout.update(other, scale: 2)
        let fresh = FrameLayout(other, scale: 2)
        #expect(layout.rows == fresh.rows && layout.banner == nil && layout.hud == nil)
        #expect(layout.scrollBar == fresh.scrollBar && layout.indicator == fresh.indicator && layout.status == fresh.status)
        #expect(layout.listTop == fresh.listTop && layout.backgroundTop == fresh.backgroundTop)
    }
}
