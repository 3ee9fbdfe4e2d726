// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Overscroll",
    // No `platforms`: Linux only (prctl, glibc signal handling, SDL from Debian); macOS does not build.
    products: [
        // What is run: the launcher, which execs the program beside it with every signal
        // blocked (Sources/OverscrollLauncher/launcher.c says why). `swift build` builds
        // both; `--product overscroll` alone builds only the launcher.
        .executable(name: "overscroll", targets: ["OverscrollLauncher"]),
        .executable(name: "overscroll-app", targets: ["OverscrollApp"]),
        .executable(name: "overscroll-bench", targets: ["overscroll-bench"]),
    ],
    // On by default: the launcher linked static, so it reaches its first instruction with no
    // loader and no libraries. A sanitizer build cannot link a static program:
    // `--disable-default-traits` links it dynamically there (script/test's TSan run).
    traits: [
        .default(enabledTraits: ["StaticLauncher"]),
        .trait(name: "StaticLauncher", description: "Link the overscroll launcher statically (not possible with a sanitizer)."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.0"),
    ],
    targets: [
        // The C edge: SDL2 and SDL2_ttf from Debian's libsdl2-dev / libsdl2-ttf-dev, plus the
        // text layer's fontconfig, fribidi and HarfBuzz (SDL_ttf already depends on the last).
        .systemLibrary(
            name: "CSDL",
            pkgConfig: "sdl2",
            providers: [
                .apt(["libsdl2-dev", "libsdl2-ttf-dev", "libfontconfig-dev", "libfribidi-dev", "libharfbuzz-dev"]),
                .brew(["sdl2", "sdl2_ttf", "fontconfig", "fribidi", "harfbuzz"]),
            ]
        ),
        // How the C targets say why they failed (`ovs_fail`: one line into the caller's buffer).
        .target(name: "CFailure"),
        // Which buffer of a small chain is free, drawn, queued or on the screen, and the
        // bounded waits for one: one state machine that CDRM's dumb buffers and CWayland's
        // wl_shm buffers drive through a table of their own functions (chain.h).
        .target(name: "CBufferChain"),
        // The refresh command's supervisor (fork, PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER):
        // C, because the code between fork() and exec must not touch Swift's runtime.
        .target(name: "CSupervisor"),
        // The list's ring of pixel rows in memory shared with the X server (MIT-SHM): C,
        // because Xlib's types clash with Swift's names. libX11 and libXext are linked:
        // Debian's libSDL2 links both, so they are loaded in every run anyway and there is
        // one copy, the one SDL's window uses (libx11-dev, libxext-dev: libsdl2-dev brings them).
        .target(name: "CXShm", dependencies: ["CFailure"], linkerSettings: [.linkedLibrary("X11"), .linkedLibrary("Xext")]),
        // Frames on a Wayland surface from wl_shm buffers of our own (the CPU path on
        // Wayland): C, for libwayland-client's varargs requests and listener tables. Linked:
        // Debian's libSDL2 links it too (so does SDL 3 under sdl2-compat), so it is loaded
        // in every run, Wayland or not, and there is one copy, the one SDL's window lives in
        // (libwayland-dev: libsdl2-dev brings it).
        .target(name: "CWayland", dependencies: ["CBufferChain", "CFailure"], linkerSettings: [.linkedLibrary("wayland-client")]),
        // libdrm (Debian's libdrm-dev), for CDRM.
        .systemLibrary(name: "CLibDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        // The console's CPU path: DRM dumb buffers page-flipped by the program itself
        // (no GBM, EGL or Mesa), the virtual terminal's switches, and the facts the
        // choice between it and OpenGL is made from. C, for libdrm's structs and ioctls.
        .target(name: "CDRM", dependencies: ["CLibDRM", "CBufferChain", "CFailure"]),
        // The console's input through libinput over udev (Debian's libinput-dev,
        // libudev-dev): touch panels of every kind, pointers scaled to the screen, the
        // kernel's event times, hot-plug. C, so Swift sees only flattened values.
        .target(name: "CInput", dependencies: ["CFailure"], linkerSettings: [.linkedLibrary("input"), .linkedLibrary("udev")]),
        // Thread naming and a join with a time limit: glibc declares them only under
        // _GNU_SOURCE, which Swift's Glibc module does not set.
        .target(name: "CWorker"),
        // What runs at the process's start, in `.preinit_array`, before any library's
        // initialiser: argc/argv captured as the process received them (the Swift runtime's
        // own guess fails under a setenv() before main, or without /proc), and the signals
        // that come before main kept for SignalHandling (early_signals.c).
        .target(name: "CProcessStart"),
        // `Worker`: the one way the program starts a thread (named, joined, stopped), and
        // `Locked`, the lock its threads share values behind.
        .target(name: "Workers", dependencies: ["CWorker"]),
        // The model, pure Swift: physics, scroll view, refresh state machine, scene (the draw
        // list), gesture scripts and the trace format, the per-frame profiler core. No SDL,
        // no files, no threads, no processes.
        .target(
            name: "OverscrollKit",
            dependencies: [.product(name: "Histogram", package: "hdrhistogram-swift")]
        ),
        // The config file's reader: the TOML a config is, strict and bounded (TOMLReader).
        .target(name: "ConfigReader", dependencies: ["OverscrollKit"]),
        // Frame-timing report files: frames.csv streaming, summary.json, Chrome trace,
        // SVG chart, loading and comparing reports.
        .target(name: "FrameReports", dependencies: ["OverscrollKit", "Workers"]),
        // Where rows come from outside the model: content files, and refresh commands
        // (spawn, pipes, timeouts, process groups).
        .target(name: "RowSources", dependencies: ["OverscrollKit", "CSupervisor", "Workers"]),
        // The SDL edge: display, the one frame function and the live and replay loops
        // around it, input translation, painter (draws a Scene), text, sound.
        .target(name: "OverscrollSDL", dependencies: ["CSDL", "CXShm", "CWayland", "CDRM", "CInput", "CProcessStart", "OverscrollKit", "FrameReports", "RowSources", "Workers"]),
        // `overscroll`: blocks every signal and execs overscroll-app. C with no Swift in it:
        // `-nostartfiles` leaves out Swift's image registration (swiftrt.o), which would pull
        // the whole runtime into a static program.
        .executableTarget(
            name: "OverscrollLauncher",
            linkerSettings: [.unsafeFlags(["-nostartfiles", "-static-executable"], .when(traits: ["StaticLauncher"]))]
        ),
        // The command line: the program itself (overscroll-app).
        // It exports wl_proxy_add_listener, so that libSDL2's calls bind to CWayland's
        // (sdldamage.c: SDL 2.26's whole-surface damage cut on the wl_shm path).
        .executableTarget(
            name: "OverscrollApp",
            dependencies: [
                "OverscrollKit", "OverscrollSDL", "FrameReports", "RowSources", "Workers", "CProcessStart", "ConfigReader",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic-symbol=wl_proxy_add_listener"])]
        ),
        // Figures, not tests: frame cost, allocations per frame, arc cost, profiler cost, soak.
        .executableTarget(
            name: "overscroll-bench",
            dependencies: [
                "OverscrollKit", "OverscrollSDL", "FrameReports", "RowSources", "CSDL",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
        // What the test suites share: synthetic frame timings, polling for an outcome, the
        // process table.
        .target(name: "TestSupport", dependencies: ["OverscrollKit"], path: "Tests/TestSupport"),
        .testTarget(
            name: "OverscrollKitTests",
            dependencies: [
                "OverscrollKit", "RowSources", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "ConfigReaderTests", dependencies: ["ConfigReader"]),
        .testTarget(name: "FrameReportsTests", dependencies: ["FrameReports", "OverscrollKit", "TestSupport"]),
        .testTarget(name: "RowSourcesTests", dependencies: ["RowSources", "OverscrollKit", "Workers", "TestSupport"]),
        // Optimized even in a debug build: its checks compare every pixel of every frame
        // of a gesture (FBDevPresenterTests, SharedMemoryPresenterTests), which unoptimized
        // took 7 of the suite's 11 serialized minutes; the code under test stays as built.
        .testTarget(name: "OverscrollSDLTests", dependencies: ["OverscrollSDL", "OverscrollKit", "RowSources", "CSDL", "CDRM", "CInput", "CBufferChain", "CWayland", "TestSupport"],
                    swiftSettings: [.unsafeFlags(["-O"])]),
        .testTarget(name: "OverscrollCLITests", dependencies: ["OverscrollKit", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
