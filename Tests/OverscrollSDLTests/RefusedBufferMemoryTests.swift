import CBufferChain
import CSDL
import Testing
import OverscrollKit
@testable import OverscrollSDL

/// A driver with too little memory for the buffers the shared-memory presenter asks for
/// (bochs-drm's 16 MiB with fbcon's console in it, issue 48): the list's ring asks for
/// less, step by step (`RingRoom`), one journal line a step, and every frame shown is still
/// the scene drawn whole; refused even the least, the run cannot show a frame and says
/// why. And a page flip that never completes ends the run with a line, not a silent hang.
extension SDLSuite { @Suite struct RefusedBufferMemoryTests {
    typealias MemoryChain = SharedMemoryPresenterTests.MemoryChain

    /// The app's 480x800 turned 90°: a buffer is 480 memory rows of the ring's rows.
    static let app = (width: 480, height: 800)
    static func bytes(_ step: RingRoom.Step) -> Int {
        Int(RingRoom(step: step).rows(height: Int32(app.height), bands: true, ahead: true)) * app.width * 4
    }

    @Test func refusedTheFullRoomTheRingKeepsItsRowsAheadWithFewerSpare() throws {
        let steps = RingRoom.Step.allCases.map(Self.bytes)
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0 > $1 }, "\(steps)")
        let chain = MemoryChain(most: 2)
        chain.limit = 2 * Self.bytes(.threeEighths)
        try SharedMemoryPresenterTests().replay(rotation: .quarter, scale: 1, app: Self.app, chain: chain)
        #expect(chain.notes.count == 1, "\(chain.notes)")
        let note = try #require(chain.notes.first)
        // What was asked, in the driver's words, and what is asked now: a driver a little
        // short of the full room keeps most of it (bochs-drm at 1280x800, by 16 KB).
        #expect(note.hasPrefix("a buffer of 1264x480: Cannot allocate memory; the list's ring asks for less: "
                               + "buffers of 1168x480 (2.24 MB) (32 rows ahead, 304 spare) instead of 1264x480 (2.43 MB) "
                               + "(32 rows ahead, 400 spare)"), "\(note)")
    }

    @Test func refusedMoreTheRingStepsDownAnEighthAtATimeToWhatFits() throws {
        let chain = MemoryChain(most: 2)
        chain.limit = 2 * Self.bytes(.spare)
        try SharedMemoryPresenterTests().replay(rotation: .quarter, scale: 1, app: Self.app, chain: chain)
        #expect(chain.notes.count == 3, "\(chain.notes)")
        #expect(chain.notes.last?.hasPrefix("a buffer of 1072x480: Cannot allocate memory; the list's ring asks for less: "
                                            + "buffers of 976x480 (1.87 MB) (32 rows ahead, 112 spare) instead of 1072x480 "
                                            + "(2.06 MB) (32 rows ahead, 208 spare)") == true, "\(chain.notes)")
    }

    @Test(arguments: [ScreenRotation.quarter, .threeQuarters])
    func refusedAtTheFlipTheRingStepsDownToNoRowsAheadAndShowsEveryFrameRight(rotation: ScreenRotation) throws {
        let chain = MemoryChain(most: 2)
        chain.limit = 2 * Self.bytes(.bare)
        chain.refusesAtFlip = true
        try SharedMemoryPresenterTests().replay(rotation: rotation, scale: 1, app: Self.app, chain: chain)
        #expect(chain.notes.count == RingRoom.Step.bare.rawValue, "\(chain.notes)")
        #expect(chain.notes.last?.contains("buffers of 912x480 (1.75 MB) (no rows ahead, 112 spare)") == true, "\(chain.notes)")
    }

    /// Unturned, the ring's eighth refused (QEMU's VGA at 1280x1024 beside fbcon): one
    /// spare row, every frame still the scene drawn whole, at the mode set or a flip.
    @Test(arguments: [false, true])
    func refusedTheEighthAnUnturnedRingKeepsOneSpareRow(atFlip: Bool) throws {
        let rows = RingRoom(step: .least).rows(height: 800, bands: false, ahead: false)
        #expect(rows == 801 && RingRoom().rows(height: 800, bands: false, ahead: false) == 900)
        let chain = MemoryChain(most: 2)
        chain.limit = 2 * Int(rows) * 480 * 4
        chain.refusesAtFlip = atFlip
        try SharedMemoryPresenterTests().replay(rotation: .none, scale: 1, app: Self.app, chain: chain)
        #expect(chain.notes.count == 1, "\(chain.notes)")
        #expect(chain.notes.first?.hasSuffix("the list's ring asks for less: buffers of 480x801 (1.54 MB) (no rows ahead, 1 spare) "
                                             + "instead of 480x900 (1.73 MB) (no rows ahead, 100 spare)") == true, "\(chain.notes)")
    }

    /// Room for one buffer at the ring's least (QEMU's VGA at 1920x1080: fbcon's 8.3 MB
    /// pinned beside the mode set's, the first flip refused): where the chain draws where
    /// it shows (DRM), one buffer from then on, every frame shown the scene drawn whole;
    /// where it does not (Wayland), the run cannot show and says why.
    @Test(arguments: [ScreenRotation.none, .threeQuarters])
    func roomForOneBufferItIsDrawnWhereItIsShown(rotation: ScreenRotation) throws {
        let bands = rotation.crosswise
        // One buffer of the full room fits (the mode set), never two of the least.
        let full = RingRoom().rows(height: Int32(Self.app.height), bands: bands, ahead: bands)
        let least = RingRoom(step: .least).rows(height: Int32(Self.app.height), bands: bands, ahead: bands)
        #expect(2 * least > full)
        let chain = MemoryChain(most: 2)
        chain.limit = Int(full) * Self.app.width * 4
        chain.refusesAtFlip = true
        chain.drawsWhereShown = true
        try SharedMemoryPresenterTests().replay(rotation: rotation, scale: 1, app: Self.app, chain: chain)
        let steps = bands ? RingRoom.Step.allCases.count - 1 : 1
        #expect(chain.notes.count == steps + 1, "\(chain.notes)")
        let asked = bands ? "816x480 (1.57 MB)" : "480x801 (1.54 MB)"
        #expect(chain.notes.last == "a page flip of a buffer of \(asked.prefix { $0 != " " }): Cannot allocate memory; "
                + "one buffer of \(asked) from now on, drawn while it is shown: a frame may tear", "\(chain.notes)")
        #expect(chain.buffers.count == 1)
    }

    /// Frames drawn and presented as the live loop does, the notes taken after each.
    private func present(_ headless: Headless, _ presenter: SharedMemoryPresenter, frames: Int, notes: inout [String]) {
        var model = OverscrollModel(configuration: .init(viewportWidth: 480, viewportHeight: 800),
                                    rows: (0..<50).map { "Row \($0)" })
        for frame in 0..<frames where presenter.loss == nil {
            model.step([], to: Double(frame) / 60)
            var scene = Scene()
            scene.rowMargin = headless.painter.rowMargin
            scene.update(model: model)
            headless.painter.invalidate()
            headless.painter.present(headless.painter.draw(scene, since: nil))
            notes += presenter.takeNotes()
        }
    }

    @Test(arguments: [ScreenRotation.none, .quarter])
    func refusedEvenTheLeastNothingCanBeShownAndTheLineSaysWhy(rotation: ScreenRotation) throws {
        let chain = MemoryChain(most: 2)
        chain.limit = 100_000
        var presenter: SharedMemoryPresenter?
        let size = rotation.crosswise ? (800, 480) : (480, 800)
        let headless = try Headless(width: size.0, height: size.1) { _ in
            var why = ""
            presenter = SharedMemoryPresenter(chain: chain, capacity: 480 * 800 * 4, currentSize: { (Int32(size.0), Int32(size.1)) },
                                              reason: "a test", bufferName: "a buffer in memory", why: &why)
            return presenter
        }
        headless.painter.rotation = rotation
        let shared = try #require(presenter)
        var notes: [String] = []
        present(headless, shared, frames: 6, notes: &notes)
        // Turned, every step down first, a line each; unturned, one (the eighth to one row).
        #expect(notes.count == (rotation.crosswise ? RingRoom.Step.allCases.count - 1 : 1), "\(notes)")
        let why = try #require(shared.cannotShow)
        #expect(shared.loss != nil)
        let least = rotation.crosswise ? "816x480 (1.57 MB)" : "480x801 (1.54 MB)"
        #expect(why == "the driver has no memory for the screen's buffers, \(least) each the least asked for: "
                + "a buffer of \(least.prefix { $0 != " " }): Cannot allocate memory", "\(why)")
    }

    @Test func aFlipThatNeverCompletesEndsTheRunSayingSo() throws {
        let chain = StalledChain()
        var presenter: ConsolePresenter?
        let headless = try Headless(width: 480, height: 800) { _ in
            var why = ""
            presenter = ConsolePresenter.make(chain, reason: "a test", why: &why)
            return presenter
        }
        let console = try #require(presenter)
        let model = OverscrollModel(configuration: .init(viewportWidth: 480, viewportHeight: 800), rows: ["a", "b"])
        headless.painter.present(headless.painter.draw(Scene(model: model), since: nil))
        // Frame after frame with something to show (the whole window changed).
        var frames = 1
        while console.loss == nil, frames < 1000 {
            console.present(PresentedFrame(kind: .whole, damage: nil))
            frames += 1
        }
        #expect(console.loss != nil, "\(frames) frames, clock \(chain.clock), buffers \(chain.madeCount)")
        #expect(console.loss == "a page flip pending for more than 5 s: the driver (memory) never completed it; nothing was shown since")
        // Frames went on until the limit, then stopped: after 5 s of the chain's clock, not never.
        #expect(chain.clock > 5000 && chain.clock < 5500, "\(chain.clock) ms")
    }
} }

/// A `ConsoleChain` in memory over CBufferChain's state machine (as DRM's dumb buffers):
/// the first buffer is put on the screen at once (a mode set), every later one queued
/// for a flip that never completes. Its clock moves only by what a wait asks for.
final class StalledChain: ConsoleChain {
    private let chain = UnsafeMutablePointer<ovs_chain>.allocate(capacity: 1)
    private let ops = UnsafeMutablePointer<ovs_chain_ops>.allocate(capacity: 1)
    private var memory: [[UInt32]] = []
    private(set) var clock = 0.0
    var madeCount: Int { memory.count }

    init() {
        ops.initialize(to: ovs_chain_ops(
            pump: { owner, timeout in StalledChain.of(owner).clock += Double(timeout); return 0 },
            make: { owner, _, want in
                StalledChain.of(owner).memory.append([UInt32](repeating: 0, count: want!.load(as: Int.self)))
                return 1
            },
            fits: { owner, slot, want in StalledChain.of(owner).memory[Int(slot)].count == want!.load(as: Int.self) ? 1 : 0 },
            drop: { owner, _ in StalledChain.of(owner).memory.removeLast() },
            silent: nil, now_ms: { StalledChain.of($0).clock }, one_queued: 1, stall_ms: 5000))
        ovs_chain_init(chain, ops, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        chain.deallocate()
        ops.deallocate()
    }

    static func of(_ owner: UnsafeMutableRawPointer?) -> StalledChain { Unmanaged<StalledChain>.fromOpaque(owner!).takeUnretainedValue() }

    var most: Int { 2 }
    var showsFromAnyPixel: Bool { true }
    var broken: Bool { ovs_chain_is_stalled(chain) != 0 }
    func waitFrame(timeoutMs: Int32) -> Bool { ovs_chain_wait(chain, { _ in 0 }, nil, timeoutMs) != Int32(ovs_chain_stalled) }

    func acquire(_ shape: BufferShape, most: Int32, timeoutMs: Int32) -> ChainBuffer? {
        var want = Int(shape.columns) * Int(shape.rows)
        _ = ovs_chain_reshape(chain, &want)
        let slot = ovs_chain_acquire(chain, &want, most, timeoutMs)
        guard slot >= 0 else { return nil }
        let pixels = memory[Int(slot)].withUnsafeMutableBufferPointer { $0.baseAddress! }
        return ChainBuffer(pixels: pixels, stride: Int(shape.columns), index: Int(slot),
                           fresh: ovs_chain_take_fresh(chain, slot) != 0)
    }

    func damage(x: Int32, y: Int32, width: Int32, height: Int32) {}

    func commit() -> Bool {
        let slot = ovs_chain_cancel(chain)
        guard slot >= 0 else { return true }
        if ovs_chain_count(chain, ovs_chain_shown) == 0 { ovs_chain_show(chain, slot) } else { ovs_chain_queue(chain, slot) }
        return true
    }

    var presenterName: String { "buffers in memory" }
    var bufferName: String { "a buffer in memory" }
    var width: Int32 { 480 }
    var height: Int32 { 800 }
    var millimetres: (width: Int, height: Int)? { nil }
    var refreshPeriod: Double? { nil }
    var description: String { "memory" }
    var lossReason: String { broken ? ChainStall.line(limitMs: Int(ops.pointee.stall_ms), driver: "memory") : "gone" }
    var active: Bool { true }
    func serviceTerminal() -> Bool { false }
    func close() {}
}
