import Testing
@testable import OverscrollKit

/// The motion is the same at any frame rate: runs at 30, 60, 120 and 144 fps agree at every
/// timestamp they share (every 1/6 s).
@Suite struct FrameRateTests {
    static let rates = [30, 60, 120, 144]

    @Test func shippedScriptsAgreeAcrossFrameRates() throws {
        let scripts = try shippedScripts()
        #expect(scripts.count >= 5)
        for (name, text) in scripts {
            let runs = try Self.rates.map { try replay(text, fps: $0) }
            var worst = 0.0
            for k in 0... {
                let samples = zip(Self.rates, runs).compactMap { fps, run -> FrameSample? in
                    let frame = k * fps / 6
                    return frame < run.count ? run[frame] : nil
                }
                if samples.count < 2 { break }
                for s in samples { worst = max(worst, abs(s.offset - samples[0].offset)) }
                #expect(Set(samples.map(\.state)).count == 1, "\(name): states differ at k=\(k)")
                #expect(Set(samples.map(\.rows)).count == 1, "\(name): rows differ at k=\(k)")
            }
            #expect(worst <= 0.5, "\(name): offsets differ by \(worst) pt")
            // Every run comes to rest exactly: velocity 0 and a resting offset.
            for run in runs {
                let last = try #require(run.last)
                #expect(last.velocity == 0, "\(name)")
                #expect(last.offset >= 0, "\(name)")
            }
        }
    }
}
