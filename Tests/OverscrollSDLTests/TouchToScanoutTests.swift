import OverscrollKit
import RowSources
import Testing
@testable import OverscrollSDL

extension SDLSuite {
    /// Touch to scanout on the DRM path's presenter over a fixed vblank (`VblankMemoryChain`,
    /// `TouchLatencyRunner`: what `overscroll-bench latency` runs): each frame's trip to the
    /// screen is its own, and a touch is timed to the vblank that showed it.
    @Suite struct TouchToScanoutTests {
        static func settings() throws -> AppSettings {
            var settings = AppSettings(rows: (0..<200).map { "Row \($0)" }, fontPath: try FontLocator.locate(explicit: nil))
            settings.sound = false
            return settings
        }

        /// A frame that commits nothing (it drew nothing new) has no trip to the screen of its
        /// own: given the frame before's number, its touch would be timed to that flip.
        @Test func aFrameThatShowsNothingNewHasNoScanoutOfItsOwn() throws {
            let chain = VblankMemoryChain(vblank: FixedVblank(period: 0.004))
            let headless = try Headless(width: 120, height: 200, presenter: { _ in
                var why = ""
                return SharedMemoryPresenter(chain: chain, capacity: 120 * 200 * 4, currentSize: { (120, 200) },
                                             reason: "test", bufferName: "a buffer in memory", why: &why)
            })
            let settings = try Self.settings()
            let session = try Session(display: headless.display, font: try FontFile.read(settings.fontPath), settings: settings,
                                      inbox: RefreshInbox(), refreshPeriod: 0.004, report: nil, warn: { _ in })
            var inputs: [TimedInput] = []
            let first = session.frame(&inputs, to: 0, startedAt: 0, cpuStart: 0)
            #expect(first.scanoutSequence == 1)
            // A finger lands: nothing moves, nothing is drawn, nothing committed.
            inputs = [TimedInput(time: 0.01, event: .pointerDown(PointerID(1), x: 60, y: 150))]
            let still = session.frame(&inputs, to: 0.01, startedAt: 0, cpuStart: 0)
            #expect(still.scanoutSequence == 0)
            // It moves: drawn, committed, the second flip.
            inputs = [TimedInput(time: 0.02, event: .pointerMove(PointerID(1), x: 60, y: 100))]
            let moved = session.frame(&inputs, to: 0.02, startedAt: 0, cpuStart: 0)
            #expect(moved.scanoutSequence == 2)
            // Every flip is told once, oldest first (the first frame's, then this one's).
            var told: [Presentation] = []
            while let p = session.display.lastShown(waitingMs: 100), p.sequence > (told.last?.sequence ?? 0) { told.append(p) }
            #expect(told.map(\.sequence) == [1, 2])
            let shown = try #require(told.last)
            // Its vblank: the first on the grid after the commit, inside the present.
            #expect(shown.sequence == 2 && shown.time > moved.presentStart && shown.time <= moved.presentDone + 0.004)
            #expect(abs(shown.time - (shown.time / 0.004).rounded() * 0.004) < 1e-9)
        }

        /// Two flips done between two looks (a commit completes the pending flip): each is
        /// told once, oldest first, then the last again, as a DRM device tells its flips
        /// (`ovs_drm_next_shown`), so neither frame's touch goes untimed.
        @Test func everyFlipIsToldOnceOldestFirst() throws {
            let period = 0.002
            let chain = VblankMemoryChain(vblank: FixedVblank(period: period))
            #expect(chain.commit())
            #expect(chain.commit())
            let told = (0..<3).compactMap { chain.lastShown(waitingMs: $0 == 0 ? 100 : 0) }
            #expect(told.map(\.sequence) == [1, 2, 2])
            try #require(told.count == 3)
            #expect(told[1].time > told[0].time)
            for t in told { #expect(abs(t.time - (t.time / period).rounded() * period) < 1e-9) }
        }

        /// Injected touches, each shown at a vblank on the grid after its frame's commit;
        /// the phases add up to the touch's time to that vblank, and the profiler (what the
        /// reports say) holds the same figures.
        @Test func injectedTouchesAreTimedToTheVblankThatShowedThem() throws {
            let finger = PointerID(1)
            var touches: [TouchLatencyRunner.Touch] = [.init(at: 0, event: .pointerDown(finger, x: 60, y: 150))]
            for k in 0..<12 { touches.append(.init(at: 0.1 + Double(k) * 0.008, event: .pointerMove(finger, x: 60, y: 140 - Double(k) * 5))) }
            touches.append(.init(at: 0.3, event: .pointerUp(finger)))
            var options = TouchLatencyRunner.Options(touches: touches)
            let period = 0.010
            options.vblank = FixedVblank(period: period, phase: 0)
            options.width = 120
            options.height = 200
            let runner = try TouchLatencyRunner(settings: try Self.settings(), options: options)
            runner.run(lead: 0.05)
            let shown = runner.shown
            #expect(!shown.isEmpty)
            // The landing drew nothing: the first frame shown is the first motion's, 0.1 s later.
            #expect(shown.first.map { abs($0.touch - runner.origin - 0.1) < 1e-9 } == true, "\(shown.first.map { $0.touch - runner.origin } ?? -1)")
            #expect(shown.first?.afterRest == true)
            for s in shown {
                let onGrid = (s.scanout / period).rounded() * period
                #expect(abs(s.scanout - onGrid) < 1e-9)
                #expect(s.scanout > s.timing.presentDone - 1e-9 && s.vblankWait <= period + 1e-9)
                let sum = s.inputWait + s.pump + s.model + s.draw + s.held + s.flipWait + s.commit + s.vblankWait
                #expect(abs(sum - s.total) < 1e-9)
            }
            let p = try #require(runner.profiler.overall.touchToScanoutPercentiles)
            #expect(p.count == shown.count)
            let worst = shown.map(\.total).max()! * 1000
            #expect(abs(p.max - worst) <= worst * 0.001 + 0.001, "\(p.max) \(worst)")
        }
    }
}
