import Foundation
import Testing

@Suite struct ReplayCommandTests {
    @Test func writesTheTraceWithTheDocumentedColumns() throws {
        let trace = CLI.temporaryPath("drag.csv")
        let result = try CLI.run(["replay", "Assets/gestures/drag.txt", "--trace", trace])
        #expect(result.status == 0, "\(result.stderr)")
        let t = try Trace(path: trace)
        #expect(Array(t.header.prefix(8)) == ["frame", "t_ms", "content_offset", "velocity", "state", "progress", "rows", "events"])
        #expect(t.rows.first?["frame"] == "0" && t.rows.first?["t_ms"] == "0.000")
        #expect(t.rows[1]["t_ms"] == "16.667")
        // The drag moves the content 300 pt into the list, where it stays (no fling).
        #expect(t.double(t.rows.count - 1, "content_offset") == 300)
        #expect(t.rows.allSatisfy { $0["rows"] == "100" && $0["state"] == "idle" })
    }

    @Test func aReleasedPullComesBackToZero() throws {
        let trace = CLI.temporaryPath("pull.csv")
        let result = try CLI.run(["replay", "Assets/gestures/pull-release.txt", "--trace", trace])
        #expect(result.status == 0, "\(result.stderr)")
        let t = try Trace(path: trace)
        let deepest = t.rows.indices.map { t.double($0, "content_offset") }.min()!
        #expect(deepest < -30)
        #expect(t.double(t.rows.count - 1, "content_offset") == 0)
        #expect(t.double(t.rows.count - 1, "velocity") == 0)
    }

    @Test func theSameScriptTwiceGivesByteIdenticalTraces() throws {
        let a = CLI.temporaryPath("a.csv"), b = CLI.temporaryPath("b.csv")
        for path in [a, b] {
            let r = try CLI.run(["replay", "Assets/gestures/pull-to-refresh.txt", "--fps", "144", "--trace", path])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let first = try Data(contentsOf: URL(fileURLWithPath: a))
        #expect(first.count > 1000)
        #expect(first == (try Data(contentsOf: URL(fileURLWithPath: b))))
    }

    @Test func pullToRefreshShowsInTheTrace() throws {
        let trace = CLI.temporaryPath("ptr.csv")
        let result = try CLI.run(["replay", "Assets/gestures/pull-to-refresh.txt", "--trace", trace, "--refresh-duration", "800ms"])
        #expect(result.status == 0, "\(result.stderr)")
        let t = try Trace(path: trace)
        let events = t.rows.compactMap { $0["events"] }.filter { !$0.isEmpty }
        #expect(events == ["feedback;flash", "refresh-start", "refresh-end"])
        #expect(t.rows.contains { $0["state"] == "armed" && $0["progress"] == "1.0000" })
        let start = t.rows.firstIndex { $0["events"] == "refresh-start" }!
        let end = t.rows.firstIndex { $0["events"] == "refresh-end" }!
        #expect(abs(t.double(end, "t_ms") - t.double(start, "t_ms") - 800) <= 16.667)
        #expect(t.rows.last?["rows"] == "103")
    }

    @Test func aMalformedScriptFailsBeforeRunningWithItsPosition() throws {
        let script = try CLI.write("down 10 20\nmove 10 x 100ms\n", to: "bad.txt")
        let trace = CLI.temporaryPath("never.csv")
        let result = try CLI.run(["replay", script, "--trace", trace])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(script):2:9: 'x' is not a number for Y"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: trace))
    }

    @Test func anUnreadableScriptExits66() throws {
        let result = try CLI.run(["replay", "/nonexistent/script.txt"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("/nonexistent/script.txt"))
    }

    @Test(arguments: [["replay", "Assets/gestures/drag.txt", "--fps", "0"],
                      ["replay", "Assets/gestures/drag.txt", "--size", "10by20"],
                      ["replay", "Assets/gestures/drag.txt", "--threshold", "-5"],
                      ["replay", "Assets/gestures/drag.txt", "--refresh-timeout", "soon"],
                      ["replay"],
                      ["--bogus"]])
    func badOptionsPrintUsageAndExit64(arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("Usage:") || result.stderr.contains("Error:"))
    }

    @Test func aMissingFontNamesTheFix() throws {
        let result = try CLI.run(["replay", "Assets/gestures/drag.txt", "--font", "/nonexistent/font.ttf"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("/nonexistent/font.ttf") && result.stderr.contains("--font"))
    }

    @Test func anUnwritableTracePathFailsAtStart() throws {
        let result = try CLI.run(["replay", "Assets/gestures/drag.txt", "--trace", "/nonexistent/dir/t.csv"])
        #expect(result.status == 73)
        #expect(result.stderr.contains("/nonexistent/dir/t.csv"))
    }

    @Test func frameRatesAgreeInTheTraces() throws {
        var traces: [Int: Trace] = [:]
        for fps in [30, 60, 120, 144] {
            let path = CLI.temporaryPath("fr\(fps).csv")
            let r = try CLI.run(["replay", "Assets/gestures/bounce-bottom.txt", "--fps", "\(fps)", "--trace", path])
            #expect(r.status == 0, "\(r.stderr)")
            traces[fps] = try Trace(path: path)
        }
        var worst = 0.0
        for k in 0..<18 {
            let values = traces.map { fps, t in t.double(k * fps / 6, "content_offset") }
            worst = max(worst, values.max()! - values.min()!)
        }
        #expect(worst <= 0.5)
    }
}

@Suite struct KioskReplayTests {
    @Test func aTouchOnlyKioskIgnoresTheMouseUnlessAllowed() throws {
        let touchOnly = CLI.temporaryPath("k.csv"), withMouse = CLI.temporaryPath("m.csv")
        #expect(try CLI.run(["replay", "Assets/gestures/mouse-drag.txt", "--kiosk", "--trace", touchOnly]).status == 0)
        #expect(try CLI.run(["replay", "Assets/gestures/mouse-drag.txt", "--kiosk", "--mouse", "--trace", withMouse]).status == 0)
        let a = try Trace(path: touchOnly), b = try Trace(path: withMouse)
        #expect(a.rows.allSatisfy { $0["content_offset"] == "0.000" })
        #expect(b.double(b.rows.count - 1, "content_offset") > 200)
    }
}
