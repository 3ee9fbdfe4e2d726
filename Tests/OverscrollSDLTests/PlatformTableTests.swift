import Foundation
import Testing
@testable import OverscrollSDL

/// The platform rows (`Platforms.rows`): SDL's driver name finds its row in any case, and
/// each row declares what the program used to branch on that name for.
@Suite struct PlatformTableTests {
    @Test func everyNameFindsItsRowInAnyCase() {
        var seen = 0
        for row in Platforms.rows {
            for name in row.sdlNames {
                for spelled in [name, name.uppercased(), name.prefix(1).uppercased() + name.dropFirst()] {
                    #expect(Platforms.row(for: spelled).name == row.name, "\(spelled)")
                    seen += 1
                }
            }
        }
        #expect(seen == 18)
        #expect(Platforms.row(for: "directfb").name == Platforms.other.name)
        #expect(Platforms.row(for: "").name == Platforms.other.name)
    }

    /// What each row says in place of the branches on its name.
    @Test func theRowsDeclareWhatWasBranchedOn() {
        let x11 = Platforms.row(for: "x11"), wayland = Platforms.row(for: "wayland")
        let kmsdrm = Platforms.row(for: "KMSDRM"), console = Platforms.row(for: "evdev")
        let headless = ["offscreen", "dummy"].map(Platforms.row(for:))
        #expect(Platforms.rows.filter(\.revealsOnFirstPresent).map(\.name) == [x11.name])
        #expect(x11.input == .sdlQueueWhenSent && wayland.input == .sdlQueue)
        #expect(kmsdrm.input == .libinput && console.input == .libinput)
        #expect(x11.loss == .serverIOError && wayland.loss == .connectionError && kmsdrm.loss == .presentFails)
        #expect(x11.scale.xScreenMillimetres && !wayland.scale.xScreenMillimetres)
        #expect(headless.allSatisfy { $0.window == .headless && $0.input == .sdlQueue })
        #expect(console.window == .standIn && kmsdrm.preparation == .consoleScreen)
        #expect(Platforms.rows.filter { $0.preparation != .nothing }.map(\.name) == [kmsdrm.name])
        #expect(Platforms.shownNames == "x11, wayland or kmsdrm")
        // Every row offers a CPU presenter and then the GPU's; only Wayland's CPU one
        // makes its window without OpenGL.
        for row in Platforms.rows {
            #expect(row.presenters.first?.needsGL == false && row.presenters.last?.needsGL == true, "\(row.name)")
            #expect(row.firstFramePresents(on: .cpu) == 1 && row.firstFramePresents(on: .gpu) == 2, "\(row.name)")
        }
        #expect(Platforms.rows.filter { PresenterTable.cpu($0).windowWithoutGL }.map(\.name) == [wayland.name])
    }

    /// `--verbose`'s line names the row and why it was taken.
    @Test func theVerboseLineSaysWhichRowAndWhy() {
        #expect(Platforms.why(Platforms.row(for: "x11"), sdlName: "x11", asked: "X11", prepared: false)
                == "platform: X11, SDL's video driver x11 (SDL_VIDEODRIVER=X11)")
        #expect(Platforms.why(Platforms.row(for: "RPI"), sdlName: "RPI", asked: nil, prepared: false)
                == "platform: another SDL video driver, SDL's video driver RPI (the first driver SDL could start; no other row names it)")
        #expect(Platforms.why(Platforms.console, sdlName: "evdev", asked: "evdev", prepared: true)
                .hasSuffix("SDL's video driver evdev (told to SDL once the screen was taken before SDL started)"))
    }

    /// A windowed platform reads its own input: no libinput is opened for it.
    @Test func aWindowedPlatformReadsItsOwnInput() {
        for driver in ["x11", "wayland", "offscreen"] {
            var why = ""
            #expect(ConsoleInput.open(for: Platforms.row(for: driver), why: &why) == nil)
            #expect(why.isEmpty)
        }
    }
}

/// docs/reference.md lists every platform `--verbose` can name.
@Suite struct DocumentedPlatformsTests {
    @Test func theReferenceNamesEveryRow() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let reference = try String(contentsOf: root.appendingPathComponent("docs/reference.md"), encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
        for row in Platforms.rows {
            #expect(reference.contains(row.name), "docs/reference.md does not name the platform \(row.name)")
        }
    }
}
