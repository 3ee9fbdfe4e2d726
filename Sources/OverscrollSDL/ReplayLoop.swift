import CSDL
import OverscrollKit

/// Runs the app against a gesture script on a virtual clock that advances exactly 1/fps
/// per frame, headless on SDL's offscreen driver unless a window is asked for. The same
/// script and options give byte-identical traces.
public final class ReplayRunner {
    public struct Options {
        public var script: GestureScript
        public var fps = 60
        public var width = 480
        public var height = 800
        public var tracePath: String?
        public var window = false
        /// Stop after this much virtual time past the script's end, whatever happens.
        public var settleLimit = 60.0

        public init(script: GestureScript) { self.script = script }
    }

    public struct Summary {
        public var frames: Int
        public var virtualSeconds: Double
    }

    private let session: Session
    private let options: Options
    private let trace: OutputFile?

    public init(settings: AppSettings, options: Options, warn: @escaping (String) -> Void) throws(SDLError) {
        // Open outputs first: a bad path fails before anything runs.
        trace = try options.tracePath.map { path throws(SDLError) in try OutputFile(path: path) }
        var display = Display.Options()
        display.width = options.width
        display.height = options.height
        display.resizable = options.window
        display.vsync = false
        if !options.window {
            display.videoDriver = "offscreen"
            display.renderDriver = "software"
            display.hidden = true
        }
        self.options = options
        session = try Session(display: try Display(display), settings: settings, inbox: RefreshInbox(), warn: warn)
    }

    public var displayDescription: String {
        "video \(session.display.videoDriver), renderer \(session.display.renderDriver)"
    }

    public func run() -> Summary {
        var driver = ReplayDriver(script: options.script, fps: options.fps, settleLimit: options.settleLimit)
        var row = CSVRowBuffer()
        trace?.write(TraceFormat.header)
        var inputs: [TimedInput] = []
        inputs.reserveCapacity(64)
        var event = SDL_Event()
        var finished = false
        while !finished {
            var quit = false
            while SDL_PollEvent(&event) != 0 {
                if session.translator.translate(event, windowSize: session.display.sizeInPoints) == .quit { quit = true }
            }
            let frame = driver.frame
            inputs.removeAll(keepingCapacity: true)
            driver.collectInputs(into: &inputs)
            session.update(inputs, to: driver.time)
            session.render()
            SDL_RenderPresent(session.display.renderer)
            if let trace {
                row.clear()
                TraceFormat.appendRow(&row, frame: frame, model: session.model)
                trace.write(row.bytes)
            }
            finished = driver.endFrame(model: session.model) || quit
        }
        trace?.flush()
        return Summary(frames: driver.frame, virtualSeconds: Double(driver.frame - 1) / Double(options.fps))
    }
}
