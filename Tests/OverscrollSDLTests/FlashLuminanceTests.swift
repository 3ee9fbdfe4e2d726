import Foundation
import OverscrollKit
import Testing
@testable import OverscrollSDL

/// WCAG 2.1 relative luminance of an sRGB pixel (0xRRGGBB): each channel linearized, then
/// 0.2126 R + 0.7152 G + 0.0722 B.
func relativeLuminance(_ pixel: UInt32) -> Double {
    func linear(_ c: UInt32) -> Double {
        let v = Double(c & 0xFF) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * linear(pixel >> 16) + 0.7152 * linear(pixel >> 8) + 0.0722 * linear(pixel)
}

extension SDLSuite { @Suite struct FlashLuminanceTests {
    /// The arming flash is feedback, not a general flash (WCAG 2.3.1: a change of relative
    /// luminance of 10 % or more): at the frame it starts, no pixel's luminance differs
    /// from the same frame without it by 0.10 or more — rows, text, disc, arc, status line.
    /// And it is there: the background brightens visibly.
    @Test(arguments: [1.0, 2.0], [100.0, 24.0])
    func noPixelChangesLuminanceByATenthAtTheFlash(scale: Double, threshold: Double) throws {
        let headless = try Headless(scale: scale)
        let model = pullUntilCrossing(threshold: threshold)
        #expect(model.events.contains(.flash))
        let scene = Scene(model: model)
        #expect(abs(scene.flash - Scene.flashPeak) < 1e-9, "measured at the flash's brightest frame")
        let before = headless.render(model, flash: false), during = headless.render(model)
        var largest = 0.0, brightened = 0
        for i in before.pixels.indices {
            let change = relativeLuminance(during.pixels[i]) - relativeLuminance(before.pixels[i])
            largest = max(largest, abs(change))
            if change > 0.01 { brightened += 1 }
        }
        #expect(largest < 0.10, "largest change of relative luminance \(largest)")
        #expect(brightened > before.pixels.count / 2, "the flash lit \(brightened) of \(before.pixels.count) pixels")
    }

    /// The formula itself, on the colours WCAG's own examples use.
    @Test func relativeLuminanceIsWCAGs() {
        #expect(relativeLuminance(0x000000) == 0)
        #expect(abs(relativeLuminance(0xFFFFFF) - 1) < 1e-12)
        #expect(abs(relativeLuminance(0x777777) - 0.1845) < 0.0005)
        #expect(abs(relativeLuminance(0xFF0000) - 0.2126) < 1e-12)
    }
}
}
