// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Overscroll",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "overscroll", targets: ["overscroll"]),
        .executable(name: "overscroll-bench", targets: ["overscroll-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.0"),
    ],
    targets: [
        // The C edge: SDL2 and SDL2_ttf from Debian's libsdl2-dev / libsdl2-ttf-dev.
        .systemLibrary(
            name: "CSDL",
            pkgConfig: "sdl2",
            providers: [.apt(["libsdl2-dev", "libsdl2-ttf-dev"]), .brew(["sdl2", "sdl2_ttf"])]
        ),
        // The model: physics, scroll view, refresh state machine, scripts, traces. No SDL.
        .target(
            name: "OverscrollKit",
            dependencies: [.product(name: "Histogram", package: "hdrhistogram-swift")]
        ),
        // The SDL layer: window, loop, input translation, drawing, sound.
        .target(name: "OverscrollSDL", dependencies: ["CSDL", "OverscrollKit"]),
        // The command line.
        .executableTarget(
            name: "overscroll",
            dependencies: [
                "OverscrollKit", "OverscrollSDL",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        // Figures, not tests: frame cost, allocations per frame, arc cost, profiler cost, soak.
        .executableTarget(
            name: "overscroll-bench",
            dependencies: [
                "OverscrollKit", "OverscrollSDL", "CSDL",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
        .testTarget(
            name: "OverscrollKitTests",
            dependencies: [
                "OverscrollKit",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "OverscrollSDLTests", dependencies: ["OverscrollSDL", "OverscrollKit", "CSDL"]),
        .testTarget(name: "OverscrollCLITests", dependencies: ["OverscrollKit"]),
    ],
    swiftLanguageModes: [.v6]
)
