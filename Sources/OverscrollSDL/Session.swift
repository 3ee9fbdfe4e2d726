import CSDL
import OverscrollKit

/// One running app: the display, the model, the painter and the sound, and the one
/// function that turns a frame's input into a drawn frame. The live loop and replay
/// differ only in where time and input come from.
final class Session {
    let display: Display
    let painter: Painter
    let sound: FeedbackSound
    let settings: AppSettings
    var model: OverscrollModel
    var translator = InputTranslator()

    init(display: Display, settings: AppSettings, inbox: RefreshInbox, warn: (String) -> Void) throws(SDLError) {
        self.display = display
        self.settings = settings
        let size = display.sizeInPoints
        let layout = ListLayout()
        let text = try TextCache(display: display, fontPath: settings.fontPath,
                                 pointSize: layout.fontSize, scale: display.pixelScale)
        painter = Painter(display: display, text: text, scale: display.pixelScale)
        sound = FeedbackSound(enabled: settings.sound, warn: warn)
        model = settings.makeModel(width: size.width, height: size.height, inbox: inbox)
    }

    /// Apply this frame's inputs at their own times, then move the model to `time`.
    func update<Inputs: Sequence<TimedInput>>(_ inputs: Inputs, to time: Double) {
        model.step(inputs, to: time)
        if model.events.contains(.feedback) { sound.play() }
    }

    func render() {
        let scene = Scene(model: model, flashEnabled: settings.flash)
        painter.draw(scene, rows: model.rows, layout: model.configuration.layout)
    }

    /// The window's size or density changed: resize the model and re-rasterize text.
    func windowChanged(at time: Double) -> TimedInput {
        try? painter.setScale(display.pixelScale)
        let size = display.sizeInPoints
        return TimedInput(time: time, event: .resize(width: size.width, height: size.height))
    }
}
