import Testing
@testable import OverscrollKit
import RowSources

/// One frame of a replay (`FrameSample`'s figures, read through), with what issue 12
/// added to the trace and the scene.
@dynamicMemberLookup
struct ListSample {
    var frame: FrameSample
    var scrollBar: Double
    var highlight: Int
    var selected: Int
    var bar: ScrollBarScene?
    var status: String?
    var pull: Double

    subscript<T>(dynamicMember figure: KeyPath<FrameSample, T>) -> T { frame[keyPath: figure] }
}

/// Plays `text` through the model the way `overscroll replay` does (without drawing) and
/// records every frame, with the scene it would draw.
func listReplay(_ text: String, fps: Int = 60, model: OverscrollModel = makeModel(),
                source: any RefreshSource = DemoRefreshSource()) throws -> (samples: [ListSample], model: OverscrollModel) {
    var scene = Scene()
    return try play(text, fps: fps, model: model, source: source) { played, model in
        scene.update(model: model)
        return ListSample(frame: FrameSample(played, model), scrollBar: model.scrollBarOpacity,
                          highlight: model.highlightedRow, selected: model.selectedRow, bar: scene.scrollBar,
                          status: scene.status?.text, pull: model.scroll.pull)
    }
}

func keyModel(acceptsKeys: Bool = true) -> OverscrollModel {
    var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800)
    c.acceptsKeys = acceptsKeys
    return OverscrollModel(configuration: c, rows: (0..<100).map { "Row \($0)" })
}

@Suite struct ScrollIndicatorTests {
    let geometry = ScrollBarGeometry()
    // 100 rows of 56 pt in 800 pt: the track is 794 pt, the bar 794 · 800/5600.
    let natural = 794.0 * 800 / 5600

    @Test(arguments: [120.0, 1200, 2400, 4800])
    func lengthIsTheVisibleFractionAndPositionTheScrollFraction(offset: Double) throws {
        let (samples, _) = try listReplay("wheel \(offset)\nwait 100ms")
        let bar = try #require(samples.last?.bar)
        #expect(abs(samples.last!.offset - offset) < 1e-9)
        #expect(abs(bar.height - natural) < 1e-9)
        #expect(abs(bar.y - (3 + offset / 4800 * (794 - natural))) < 1e-9)
        #expect(bar.x == 480 - 3 - 3 && bar.width == 3)
    }

    @Test func aLongListGetsTheMinimumLength() throws {
        let (samples, _) = try listReplay("wheel 279200\nwait 100ms", model: makeModel(rows: 5000))
        let bar = try #require(samples.last?.bar)
        #expect(bar.height == 36)
        #expect(abs(bar.y + bar.height - (800 - 3)) < 1e-9)    // at the bottom of the track
    }

    @Test func itShrinksWhileOverscrolledAtEitherEdgeAndStaysInTheTrack() throws {
        // Pulled down past the top: pinned to the top of the track, shorter by the pull.
        let (top, _) = try listReplay("down 240 100\nmove 240 300 200ms\nwait 50ms")
        let pulled = try #require(top.last)
        let bar = try #require(pulled.bar)
        #expect(pulled.pull > 40)
        #expect(bar.y == 3)
        #expect(abs(bar.height - (natural - pulled.pull)) < 1e-9)
        // Pushed up past the bottom: pinned to the bottom.
        let (bottom, _) = try listReplay("wheel 4800\ndown 240 600\nmove 240 400 200ms\nwait 50ms")
        let pushed = try #require(bottom.last)
        let low = try #require(pushed.bar)
        let over = pushed.offset - 4800
        #expect(over > 40)
        #expect(abs(low.height - (natural - over)) < 1e-9)
        #expect(abs(low.y + low.height - 797) < 1e-9)
        // However far it goes, it never shrinks below its floor.
        #expect(ScrollBarGeometry().frame(offset: -700, viewportWidth: 480, viewportHeight: 800, contentHeight: 5600)?.height == 6)
    }

    @Test(arguments: [60, 144])
    func itShowsWithinAFrameOfMovingAndFadesHalfASecondToASecondAfterRest(fps: Int) throws {
        let (samples, _) = try listReplay("down 240 600\nmove 240 400 300ms\nwait 100ms\nup\nwait 2s", fps: fps)
        let moved = try #require(samples.firstIndex { $0.offset != 0 })
        #expect(samples[moved].scrollBar > 0)
        #expect(samples[..<moved].allSatisfy { $0.scrollBar == 0 })
        let rest = try #require(samples.lastIndex { $0.velocity != 0 || $0.offset != samples.last!.offset })
        let restTime = samples[rest + 1].time
        let gone = try #require(samples.firstIndex { $0.time > restTime && $0.scrollBar == 0 })
        let fade = samples[gone].time - restTime
        #expect(fade >= 0.5 && fade <= 1, "faded \(fade) s after rest")
        #expect(samples[rest...].contains { $0.scrollBar > 0 && $0.scrollBar < 1 })   // it fades, not blinks
    }

    @Test func whileFadingTheModelIsNotSettledAndOnceFadedItIs() throws {
        var model = makeModel()
        model.step([TimedInput(time: 0, event: .wheel(dy: 200))], to: 0.016)
        #expect(model.isMotionSettled && !model.isSettled)
        model.step([], to: 0.5)
        #expect(!model.isSettled)
        model.step([], to: 2)
        #expect(model.isSettled && model.scrollBarOpacity == 0)
    }

    @Test func hiddenWhenTheContentFits() throws {
        let (samples, _) = try listReplay("down 240 300\nmove 240 100 300ms\nup\nwait 1s", model: makeModel(rows: 5))
        #expect(samples.contains { $0.offset > 0 })
        #expect(samples.allSatisfy { $0.scrollBar == 0 && $0.bar == nil })
    }
}

@Suite struct StatusLineTests {
    /// 12:03:30 local at model time 0, so a refresh 40 s in is "12:04".
    static func model(statusText: Bool = true) -> OverscrollModel {
        var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800, threshold: 100)
        c.wallClock = WallClock(start: 1_767_268_800 + 3 * 60 + 30, utcOffset: 0)
        c.showsStatusText = statusText
        return OverscrollModel(configuration: c, rows: (0..<100).map { "Row \($0)" })
    }

    let pullAndRelease = "wait 40s\ndown 240 100\nmove 240 200 200ms\nwait 100ms\nmove 240 500 300ms\nwait 100ms\nup\nwait 3s"

    @Test func theLineFollowsTheState() throws {
        let (samples, _) = try listReplay(pullAndRelease, model: Self.model())
        func statuses(_ state: String) -> Set<String?> { Set(samples.filter { $0.state == state && $0.pull >= 12 }.map(\.status)) }
        // Early in the pull the line does not fit above the list yet: it is not drawn (nil).
        #expect(statuses("pulling") == ["Pull to refresh · updated 12:03", nil])
        #expect(statuses("armed") == ["Release to refresh"])
        #expect(statuses("refreshing") == ["Refreshing…"])
        // Nothing while the list collapses: the time shows on the next pull.
        #expect(statuses("finishing") == [nil])
    }

    @Test func aLaterPullShowsTheLastRefreshTime() throws {
        let (samples, _) = try listReplay(pullAndRelease + "\ndown 240 100\nmove 240 290 200ms\nwait 50ms",
                                          model: Self.model())
        #expect(samples.last?.state == "pulling")
        #expect(samples.last?.status == "Pull to refresh · updated 12:04")
    }

    @Test func aFailureShowsTheBannerNotALine() throws {
        let (samples, _) = try listReplay(pullAndRelease, model: Self.model(), source: FailingSource())
        #expect(samples.contains { $0.state == "finishing" })
        #expect(samples.filter { $0.state == "finishing" }.allSatisfy { $0.status == nil })
    }

    @Test func statusTextOffHidesIt() throws {
        let (samples, _) = try listReplay(pullAndRelease, model: Self.model(statusText: false))
        #expect(samples.contains { $0.state == "refreshing" })
        #expect(samples.allSatisfy { $0.status == nil })
    }

    @Test func theClockIsLocalTimeFromTheInjectedStart() {
        #expect(WallClock(start: 0, utcOffset: 0).clockTime(at: 0) == "00:00")
        #expect(WallClock(start: 0, utcOffset: -3600).clockTime(at: 0) == "23:00")
        #expect(WallClock(start: 0, utcOffset: 5.5 * 3600).clockTime(at: 59.9) == "05:30")
        #expect(WallClock.replay.clockTime(at: 3600 * 25 + 61) == "13:01")
    }

    @Test func stringsLiveInOnePlaceAndCanBeReplaced() throws {
        var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800, threshold: 100)
        var german = ListStrings()
        german.releaseToRefresh = "Loslassen zum Aktualisieren"
        c.strings = german
        let model = OverscrollModel(configuration: c, rows: (0..<100).map { "Row \($0)" })
        let (samples, _) = try listReplay("down 240 100\nmove 240 500 400ms\nwait 50ms", model: model)
        #expect(samples.last?.state == "armed")
        #expect(samples.last?.status == "Loslassen zum Aktualisieren")
    }
}

@Suite struct PressAndTapTests {
    /// The row under y = 300 at rest: 300 / 56 → row 5.
    let row = 5

    @Test func aPressHeld150msHighlightsAfter100msAndIsATap() throws {
        let (samples, _) = try listReplay("down 240 300\nwait 150ms\nup\nwait 100ms")
        #expect(samples.filter { $0.time < 0.1 }.allSatisfy { $0.highlight == -1 })
        #expect(samples.filter { $0.time >= 0.1 && $0.time < 0.15 }.allSatisfy { $0.highlight == row })
        let tap = try #require(samples.firstIndex { $0.events.contains(.tap) })
        #expect(abs(samples[tap].time - 0.15) < 1e-9)
        #expect(samples[tap...].allSatisfy { $0.selected == row && $0.highlight == -1 })
        #expect(samples.allSatisfy { $0.offset == 0 })
    }

    @Test func aQuickTapSelectsWithoutAHighlight() throws {
        let (samples, _) = try listReplay("down 240 300\nwait 50ms\nup\nwait 50ms")
        #expect(samples.allSatisfy { $0.highlight == -1 })
        #expect(samples.last?.selected == row)
        #expect(samples.filter { $0.events.contains(.tap) }.count == 1)
    }

    @Test func aDragOf40ptNeverHighlightsAndMovesTheContentOneToOne() throws {
        let (samples, _) = try listReplay("down 240 300\nmove 240 260 100ms\nwait 200ms\nup\nwait 500ms")
        #expect(samples.allSatisfy { $0.highlight == -1 && $0.selected == -1 })
        // No dead zone: from the first sample the content is where the finger put it.
        // (The panel reports every 8 ms: a frame shows the latest sample.)
        for sample in samples where sample.time > 0 && sample.time < 0.1 {
            let reported = (sample.time / 0.008).rounded(.down) * 0.008
            #expect(abs(sample.offset - 40 * reported / 0.1) < 1e-9, "at \(sample.time)")
        }
        #expect(samples.first { abs($0.time - 0.3) < 1e-9 }?.offset == 40)
    }

    @Test func movingPastTheSlopCancelsAHighlightAndTheDragGoesOn() throws {
        let (samples, _) = try listReplay("down 240 300\nwait 150ms\nmove 240 280 50ms\nwait 100ms\nup\nwait 100ms")
        #expect(samples.contains { $0.highlight == row })
        #expect(samples.filter { $0.time >= 0.2 }.allSatisfy { $0.highlight == -1 && $0.selected == -1 })
        #expect(samples.first { abs($0.time - 0.25) < 1e-9 }?.offset == 20)
    }

    @Test(arguments: ["350ms", "450ms", "3s"])
    func aSlowPressIsStillATap(held: String) throws {
        let (samples, _) = try listReplay("down 240 300\nwait \(held)\nup\nwait 50ms")
        #expect(samples.contains { $0.highlight == row })
        #expect(samples.filter { $0.events.contains(.tap) }.count == 1)
        #expect(samples.last?.selected == row && samples.last?.highlight == -1)
    }

    @Test func aTapOnAMovingListOnlyStopsIt() throws {
        let (samples, _) = try listReplay("down 240 600\nmove 240 300 100ms\nup\nwait 200ms\ndown 240 300\nwait 50ms\nup\nwait 300ms")
        let touch = try #require(samples.firstIndex { $0.time > 0.3 + 1e-12 })   // the frame that sees the touch
        #expect(abs(samples[touch - 1].velocity) > 100)      // it was moving
        #expect(samples[touch].velocity == 0)
        #expect(samples[touch...].allSatisfy { $0.offset == samples[touch].offset })   // and stopped there
        #expect(samples.allSatisfy { $0.selected == -1 && $0.highlight == -1 && !$0.events.contains(.tap) })
    }

    @Test func aSecondFingerNeverTaps() throws {
        for script in ["down 240 300\nfinger 2 down 240 400\nfinger 2 up\nup\nwait 50ms",
                       "down 240 300\nfinger 2 down 240 400\nwait 50ms\nup\nwait 20ms\nfinger 2 up\nwait 50ms"] {
            let (samples, _) = try listReplay(script)
            #expect(samples.allSatisfy { $0.selected == -1 && $0.highlight == -1 }, "\(script)")
        }
    }

    @Test func theMouseTapsToo() throws {
        let (samples, _) = try listReplay("mouse down 240 100\nwait 50ms\nmouse up\nwait 50ms")
        #expect(samples.last?.selected == 1)
    }

    @Test func theSelectionStaysOnItsRowWhenRowsArriveOnTop() throws {
        let (samples, model) = try listReplay("""
            down 240 300
            up
            wait 100ms
            down 240 100
            move 240 500 400ms
            wait 100ms
            up
            wait 3s
            """)
        #expect(samples.contains { $0.events.contains(.refreshEnd) })
        #expect(model.rows.count == 103)
        #expect(model.selectedRow == row + 3)
        #expect(model.rows[model.selectedRow].text == "Row \(row)")
    }
}

@Suite struct KeyTests {
    func offset(after script: String, model: OverscrollModel = keyModel()) throws -> Double {
        let (samples, _) = try listReplay(script + "\nwait 2s", model: model)
        #expect(samples.last?.velocity == 0)
        return samples.last!.offset
    }

    @Test(arguments: [
        ("key Down", 56.0), ("key Down\nkey Up", 0), ("key Down\nwait 50ms\nkey Down\nwait 50ms\nkey Down", 168),
        ("key PageDown", 744), ("key PageDown\nwait 1s\nkey PageUp", 0), ("key Space", 744),
        ("key PageDown\nkey PageDown\nwait 2s\nkey Space shift", 744), ("key End", 4800),
        ("key End\nwait 2s\nkey Home", 0), ("key Up", 0), ("key R", 0),
    ])
    func keysMoveTheContentByTheirAmount(script: String, expected: Double) throws {
        #expect(try offset(after: script) == expected)
    }

    @Test func aKeyGlidesOnTheSpringAndReportsAKeyEvent() throws {
        let (samples, _) = try listReplay("key PageDown\nwait 2s", model: keyModel())
        #expect(samples.first?.events.contains(.key) == true)
        let between = samples.filter { $0.offset > 0 && $0.offset < 744 }
        #expect(between.count > 10)                                         // animated, not a jump
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $1.offset >= $0.offset })   // critically damped: no overshoot
    }

    @Test func aTouchInterruptsAGlide() throws {
        let (samples, _) = try listReplay("key End\nwait 200ms\ndown 240 400\nwait 300ms\nup\nwait 500ms", model: keyModel())
        let touch = try #require(samples.firstIndex { abs($0.time - 0.2) < 1e-9 })
        #expect(samples[touch].offset > 0 && samples[touch].offset < 4800)
        #expect(samples[touch...].allSatisfy { $0.offset == samples[touch].offset })
    }

    @Test(arguments: ["key F5", "key r ctrl"])
    func f5AndCtrlRRefreshAsIfPulled(script: String) throws {
        let (samples, model) = try listReplay(script + "\nwait 600ms\nwait 2s", model: keyModel())
        #expect(samples.first?.events.contains(.refreshStart) == true)
        #expect(samples.first?.state == "refreshing")
        // The list glides open to show the spinner...
        let open = samples.filter { $0.state == "refreshing" }.map(\.pull).max() ?? 0
        #expect(abs(open - RefreshController.Configuration.restingExtent) < 0.5)
        // ...and the refresh ends as a pulled one does.
        #expect(samples.contains { $0.events.contains(.refreshEnd) })
        #expect(model.rows.count == 103 && model.scroll.offset == 0)
    }

    @Test func aKioskWithoutKeyboardIgnoresKeys() throws {
        let (samples, _) = try listReplay("key End\nkey F5\nwait 1s", model: keyModel(acceptsKeys: false))
        #expect(samples.allSatisfy { $0.offset == 0 && $0.state == "idle" && $0.events.isEmpty })
    }

    @Test func scriptsNameKeysAsSDLDoes() throws {
        let script = try GestureScript(parsing: "key PageDown\nkey space SHIFT\nkey R ctrl shift\nkey F5")
        #expect(script.lines.map(\.command) == [.key(.pageDown, []), .key(.space, .shift),
                                                  .key(.r, [.ctrl, .shift]), .key(.f5, [])])
        #expect(throws: GestureScript.ParseError(line: 1, column: 5, message: "unknown key 'Tab'; expected one of Up, Down, PageUp, PageDown, Space, Home, End, F5, R")) {
            try GestureScript(parsing: "key Tab")
        }
        #expect(throws: GestureScript.ParseError(line: 1, column: 10, message: "unknown modifier 'alt'; expected shift or ctrl")) {
            try GestureScript(parsing: "key Down alt")
        }
    }
}

@Suite struct RefreshReportTests {
    @Test func linesAreShortAndGreppable() {
        #expect(RefreshReport(ending: .success(rows: 12), duration: 0.8449, rows: 112).logLine == "refreshed: 12 rows in 0.84 s")
        #expect(RefreshReport(ending: .failure("'sh' exited 2: server unreachable"), duration: 0.1, rows: 100).logLine
                == "refresh failed: 'sh' exited 2: server unreachable (kept 100 rows)")
        #expect(RefreshReport(ending: .timedOut(after: 10), duration: 10, rows: 100).logLine
                == "refresh timed out after 10 s (kept 100 rows)")
    }

    @Test func theModelReportsEachOutcomeOnTheFrameItEnds() throws {
        let pull = "down 240 100\nmove 240 500 400ms\nwait 100ms\nup\nwait 12s"
        let cases: [(any RefreshSource, RefreshReport.Ending)] = [
            (DemoRefreshSource(duration: 0.84, rowsPerRefresh: 12), .success(rows: 12)),
            (FailingSource(message: "boom"), .failure("boom")),
            (HangingSource(), .timedOut(after: 10)),
        ]
        for (source, ending) in cases {
            var driver = ReplayDriver(script: try GestureScript(parsing: pull), fps: 60)
            var model = makeModel()
            var reports: [RefreshReport] = []
            driver.play(&model, source: source) { played, _ in
                if let report = played.effects.refreshEnded { reports.append(report) }
                return true
            }
            #expect(reports.map(\.ending) == [ending])
        }
    }
}

@Suite struct RowStripeTests {
    /// Rows inserted above keep every row below its zebra shade, so a refresh recolours no
    /// row on screen; neighbours still differ, and new content starts from the first shade.
    @Test(arguments: [1, 2, 3])
    func rowsInsertedAboveKeepEveryRowsShade(inserted: Int) {
        var model = makeModel(rows: 30)
        let before = Dictionary(uniqueKeysWithValues: Scene(model: model).rows.map { ($0.id, $0.stripe) })
        #expect(Set(before.values) == [0, 1])
        model.insert((0..<inserted).map { "New \($0)" }, merge: .insertAtTop, at: 1)
        let rows = Scene(model: model).rows
        let kept = rows.filter { before[$0.id] != nil }
        #expect(kept.count > 5 && rows.count > kept.count)
        for row in kept { #expect(row.stripe == before[row.id], "row \(row.id)") }
        for (upper, lower) in zip(rows, rows.dropFirst()) { #expect(upper.stripe != lower.stripe, "rows \(upper.id), \(lower.id)") }
        model.insert(["Fresh 0", "Fresh 1"], merge: .replace, at: 2)
        #expect(Scene(model: model).rows.map(\.stripe) == [0, 1])
    }
}

/// Home, End and F5 glide to the end in at most half a second, whatever the distance
/// (iOS's scroll-to-top); a row or a page keeps the spring's pace.
@Suite struct LongJumpTests {
    /// 200 rows, scrolled so row 100 is at the top, then Home: on the replay's virtual
    /// clock the list is at rest at the top within 0.5 s of the key.
    @Test(arguments: [60, 120])
    func homeFromRow100ReachesTheTopWithinHalfASecond(fps: Int) throws {
        var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800)
        c.acceptsKeys = true
        let model = OverscrollModel(configuration: c, rows: (0..<200).map { "Row \($0)" })
        // 100 rows of 56 pt down by the wheel (a jump, no glide), settled, then Home at 1 s.
        let (samples, _) = try listReplay("wheel 5600\nwait 1s\nkey Home\nwait 1s", fps: fps, model: model)
        let key = try #require(samples.firstIndex { $0.events.contains(.key) })
        #expect(abs(samples[key - 1].offset - 5600) < 1e-9, "row 100 was not at the top before Home")
        let start = samples[key - 1].time
        let rest = try #require(samples[key...].firstIndex { $0.offset == 0 && $0.velocity == 0 })
        #expect(samples[rest].time - start <= 0.5 + 1e-9, "at the top \(samples[rest].time - start) s after Home")
        // A glide, not a jump: frames in between, and no overshoot past the top.
        #expect(samples[key..<rest].filter { $0.offset > 0 && $0.offset < 5600 }.count >= fps / 6)
        #expect(samples[key...].allSatisfy { $0.offset >= 0 })
    }

    @Test func endFromTheTopAndF5FromDeepInTheListTakeAtMostHalfASecond() throws {
        for script in ["key End", "wheel 4000\nwait 1s\nkey F5"] {
            let (samples, _) = try listReplay(script + "\nwait 2s", model: keyModel())
            let key = try #require(samples.firstIndex { $0.events.contains(.key) })
            let start = key > 0 ? samples[key - 1].time : 0
            // End: the bottom; F5: open by the spinner's resting extent, above the top.
            let target = script.hasSuffix("F5") ? samples.map(\.offset).min()! : samples.last!.offset
            let rest = try #require(samples[key...].firstIndex { abs($0.offset - target) < 1e-9 && $0.velocity == 0 })
            #expect(samples[rest].time - start <= 0.5 + 1e-9, "\(script): \(samples[rest].time - start) s")
        }
    }

    /// A row's move is as it was: the spring's own pace (it settles after 0.5 s).
    @Test func aRowKeepsTheSpringsPace() throws {
        let (samples, _) = try listReplay("key Down\nwait 2s", model: keyModel())
        let rest = try #require(samples.firstIndex { $0.offset == 56 && $0.velocity == 0 })
        let spring = SpringSimulation(spring: .bounce, start: 0, end: 56, velocity: 0)
        #expect(abs(samples[rest].time - spring.settleTime) <= 1.0 / 60 + 1e-9)
        #expect(spring.settleTime > 0.5)
    }
}
