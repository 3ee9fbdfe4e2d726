import ArgumentParser
import CSDL
import Foundation
import OverscrollSDL

/// The last frame of a gesture script played headless, as a binary PPM: what
/// script/cage-test compares a compositor's screenshot of the same replay with.
struct Picture: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a gesture script headless and write its last frame as a binary PPM (the rows are the built-in sample unless --content).")
    @Argument(help: ArgumentHelp("Gesture script.", valueName: "file")) var script: String
    @Option(help: ArgumentHelp("Window size.", valueName: "WxH")) var size = SizeOption(width: 480, height: 800)
    @Option(help: ArgumentHelp("Where to write the picture.", valueName: "file.ppm")) var out: String
    @Option(help: ArgumentHelp("Rows from this file, one per line (script/vm-test's reload).", valueName: "file")) var content: String?

    func run() {
        let parsed = Bench.script(script, default: "").script
        let runner = Bench.runner(script: parsed, size: size, rows: Bench.rows(file: content))
        _ = runner.run()
        let renderer = runner.display.renderer
        SDL_RenderFlush(renderer)
        let (w, h) = runner.display.sizeInPixels
        var pixels = [UInt32](repeating: 0, count: w * h)
        let read = pixels.withUnsafeMutableBytes { raw in
            SDL_RenderReadPixels(renderer, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, raw.baseAddress, Int32(w * 4))
        }
        guard read == 0 else { Bench.fail("cannot read the frame back: \(String(cString: SDL_GetError()))", code: 70) }
        var data = Data("P6\n\(w) \(h)\n255\n".utf8)
        data.reserveCapacity(data.count + w * h * 3)
        for p in pixels { data.append(contentsOf: [UInt8((p >> 16) & 0xFF), UInt8((p >> 8) & 0xFF), UInt8(p & 0xFF)]) }
        guard FileManager.default.createFile(atPath: out, contents: data) else { Bench.fail("\(out): cannot write the picture", code: 73) }
        print("picture: \(w)x\(h) after \(parsed.duration) s of script, written to \(out)")
    }
}
