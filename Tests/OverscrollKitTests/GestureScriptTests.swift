import Testing
@testable import OverscrollKit

@Suite struct GestureScriptTests {
    @Test func parsesEveryCommand() throws {
        let script = try GestureScript(parsing: """
            # a comment
            wait 250ms
            down 10 20   # trailing comment
            move 30.5 40 1.5s
            up
            finger 2 down 1 2
            finger 2 move 3 4
            finger 2 up
            mouse down 5 6
            mouse move 7 8 100ms
            mouse up
            wheel -120
            """)
        #expect(script.lines.map(\.command) == [
            .wait(0.25), .down(.finger(1), x: 10, y: 20), .move(.finger(1), x: 30.5, y: 40, duration: 1.5),
            .up(.finger(1)), .down(.finger(2), x: 1, y: 2), .move(.finger(2), x: 3, y: 4, duration: 0),
            .up(.finger(2)), .down(.mouse, x: 5, y: 6), .move(.mouse, x: 7, y: 8, duration: 0.1),
            .up(.mouse), .wheel(-120),
        ])
        #expect(script.lines.first?.number == 2)
    }

    @Test(arguments: [
        ("jump 1 2", 1, 1, "unknown command 'jump'"),
        ("down 10", 1, 8, "'down' needs Y coordinate"),
        ("\n  move 1 2 fast", 2, 12, "'fast' is not a duration"),
        ("wait", 1, 5, "'wait' needs a duration"),
        ("finger 0 down 1 2", 1, 8, "'0' is not a finger number"),
        ("up now", 1, 4, "unexpected 'now'"),
        ("mouse drag 1 2", 1, 7, "unknown action 'drag'"),
        ("wheel x", 1, 7, "'x' is not a number"),
    ])
    func errorsNameLineAndColumn(text: String, line: Int, column: Int, message: String) {
        #expect {
            try GestureScript(parsing: text)
        } throws: { error in
            guard let e = error as? GestureScript.ParseError else { return false }
            return e.line == line && e.column == column && e.message.hasPrefix(message)
        }
    }

    @Test func movesAreSampledEveryEightMillisecondsAndLandOnTheTarget() throws {
        let player = ScriptPlayer(script: try GestureScript(parsing: "down 0 0\nmove 0 100 20ms\nup"))
        let times = player.timeline.map(\.time)
        #expect(times == [0, 0.008, 0.016, 0.02, 0.02])
        #expect(player.timeline[3].event == .pointerMove(PointerID(1), x: 0, y: 100))
        #expect(player.timeline[1].event == .pointerMove(PointerID(1), x: 0, y: 40))
    }

    /// Durations past an hour are a script error, not a crash.
    @Test func absurdDurationsAreAScriptErrorNotACrash() {
        #expect(throws: GestureScript.ParseError.self) { try GestureScript(parsing: "down 0 0\nmove 0 1 99999999s") }
        #expect(throws: GestureScript.ParseError.self) { try GestureScript(parsing: "wait 2h") }
        #expect(throws: GestureScript.ParseError.self) { try GestureScript(parsing: "wait 3601s") }
    }
}

@Suite struct CSVRowBufferTests {
    @Test(arguments: [(0.0, 3, "0.000"), (-4.9965, 3, "-4.997"), (16.6666667, 3, "16.667"),
                      (-0.0001, 3, "0.000"), (1234.5, 0, "1235"), (Double.nan, 2, "nan"), (0.5, 4, "0.5000")])
    func formatsFixedDecimals(value: Double, decimals: Int, expected: String) {
        var row = CSVRowBuffer()
        row.append(value, decimals: decimals)
        #expect(String(decoding: row.bytes, as: UTF8.self) == expected)
    }
}
