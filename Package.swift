// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The default build runs on any x86-64 (or arm64) machine: no code path
// depends on the CPU that built it. Native tuning is an opt-in for a binary
// that stays on the machine that built it: `SPRINGFRAME_NATIVE=1 swift build
// -c release` compiles every target for the building CPU (`-target-cpu
// native`, as clang's `-march=native`). Its measured gain is in README.md
// ("Building for this machine only").
let nativeTuning: [SwiftSetting] =
  ProcessInfo.processInfo.environment["SPRINGFRAME_NATIVE"].map { ["", "0"].contains($0) } == false
  ? [.unsafeFlags(["-target-cpu", "native"])] : []

// The module map is in ARCHITECTURE.md. Each module is one target; tests
// mirror them. The model and rendering core (Primitives, PortableMath,
// Timing, Syntax, Layout, SceneModel, Raster, Render) never imports
// Foundation or C; files, processes and codecs live at the edges.
let package = Package(
  name: "Springframe",
  products: [
    .executable(name: "render", targets: ["RenderCommand"]),
    .executable(name: "raster-benchmark", targets: ["RasterBenchmark"]),
    .executable(name: "gif-compare", targets: ["GIFCompare"]),
    .executable(name: "video-benchmark", targets: ["VideoBenchmark"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // The live preview's server: HTTP/1 and WebSocket handlers, no parsing of our own.
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
  ],
  targets: [
    // The elementary functions (sin, exp, pow, atan2, …) of every module, in
    // pure Swift and correctly rounded: the same bits on every machine,
    // whatever its C library.
    .target(name: "PortableMath"),
    .target(name: "Primitives", dependencies: ["PortableMath"]),
    .target(name: "Syntax", dependencies: ["PortableMath", "Primitives"]),
    .target(name: "Layout", dependencies: ["Primitives"]),
    .target(
      name: "Timing",
      dependencies: ["PortableMath", "Primitives", "Syntax"]
    ),
    .target(
      name: "Raster",
      dependencies: ["PortableMath", "Primitives"]
    ),
    .target(name: "SceneModel", dependencies: ["Primitives", "Syntax", "Timing"]),
    .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
    .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
    .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
    // Fonts found through fontconfig, opened by FreeType, shaped by HarfBuzz;
    // glyph outlines become Paths that the rasterizer fills.
    .target(name: "Typography", dependencies: ["Primitives", "Syntax", "CFreeType", "CHarfBuzz", "CFontconfig"]),
    .target(
      name: "Render",
      dependencies: ["SceneModel", "Layout", "Raster", "Primitives", "Syntax", "Timing"]),
    // Lottie animations (Bodymovin JSON) as frame sources: a decoder with
    // located errors, a typed model, an evaluator into recordings.
    .target(name: "Lottie", dependencies: ["Primitives", "Syntax", "SceneModel", "Raster", "Render"]),
    // A scene file and the files it names (images, fonts), read from its folder.
    .target(
      name: "SceneFiles",
      dependencies: [
        "Render", "SceneModel", "PNGCodec", "Raster", "Primitives", "Typography", "Lottie", "Syntax", "VideoOutput", "CZip",
      ]),
    .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
    .target(name: "CPNGShim", dependencies: ["CPNG"]),
    .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
    .target(name: "Pipeline", dependencies: ["Render", "Raster", "PNGCodec", "SceneModel", "Syntax", "Timing", "VideoOutput", "GIFOutput"]),
    .target(name: "PNGCodec", dependencies: ["Raster", "CPNG", "CPNGShim"]),
    .target(name: "GIFOutput", dependencies: ["PortableMath", "Raster", "Primitives"]),
    // FFmpeg's headers only (Debian's libavcodec-dev, libavformat-dev,
    // libavutil-dev, libswscale-dev, in the compiler's own include path): the
    // libraries are not linked but opened when a video is first written or
    // read (CFFmpegShim/FFmpegLoader.c), which spares every other command
    // the 45 ms of mapping them at start-up. pkg-config would link them.
    .systemLibrary(name: "CFFmpeg"),
    .target(name: "CFFmpegShim", dependencies: ["CFFmpeg"]),
    .systemLibrary(name: "CWebP", pkgConfig: "libwebpmux libwebp", providers: [.apt(["libwebp-dev"])]),
    .systemLibrary(name: "CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
    .target(name: "VideoOutput", dependencies: ["Raster", "CFFmpeg", "CFFmpegShim", "CWebP"]),
    // What a design review needs besides the video: charts of the motion,
    // overlays, contact sheets, comparisons.
    .target(name: "Review", dependencies: ["PortableMath", "Primitives", "Syntax", "SceneModel", "Timing", "Raster", "Render", "Typography"]),
    // A frame source rendered into outputs without the command line: the
    // render job (targets, passes, staging, size budgets), contact sheets
    // and comparisons through the pipeline. The command line, a server and
    // the tests call it alike.
    .target(
      name: "Jobs",
      dependencies: [
        "Pipeline", "Review", "Render", "Raster", "Primitives", "SceneModel", "Syntax", "PNGCodec", "VideoOutput", "SceneFiles", "Typography",
      ]),
    // `render preview`: a loopback HTTP server (SwiftNIO) that watches a scene's
    // folder (inotify) and serves its frames, rendered as `render still`
    // renders them, to a page of its own. At the edge, like the command line.
    .target(
      name: "Preview",
      dependencies: [
        "Jobs", "Render", "SceneFiles", "SceneModel", "Review", "PNGCodec", "Raster", "Primitives", "Syntax", "Typography",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
      ]),
    .executableTarget(
      name: "RenderCommand",
      dependencies: [
        "Review", "Typography", "Primitives", "Syntax", "Timing", "SceneModel", "Render", "SceneFiles", "PNGCodec", "Pipeline", "VideoOutput",
        "Raster", "CMalloc", "Jobs", "Preview",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      // libx264's blocks start as the same bytes every run (CFFmpegShim's memalign, which the
      // libraries find first only if the executable exports it).
      linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic-symbol=memalign"])]
    ),
    // Drawing operations as JSON, shared with Skia (scripts/skia_frames.py):
    // the benchmark's workloads and the rasterizer's golden images.
    .target(
      name: "DisplayListFixtures",
      dependencies: ["PortableMath", "Raster", "Primitives"],
      path: "Benchmarks/DisplayListFixtures"
    ),
    .executableTarget(
      name: "RasterBenchmark",
      dependencies: ["Raster", "Primitives", "PNGCodec", "DisplayListFixtures"],
      path: "Benchmarks/RasterBenchmark"
    ),
    .executableTarget(
      name: "GIFCompare", dependencies: ["GIFOutput", "PNGCodec", "PortableMath", "Raster", "TestSupport"], path: "Benchmarks/GIFCompare"),
    // What tests and benchmarks share: a GIF decoder written from the spec, scratch folders.
    .target(name: "TestSupport", dependencies: ["Render", "Raster", "Primitives"], path: "Tests/TestSupport"),
    .executableTarget(
      name: "VideoBenchmark", dependencies: ["VideoOutput", "PortableMath", "Raster", "Primitives", "PNGCodec", "CMalloc"],
      path: "Benchmarks/VideoBenchmark"),
    // Primitives for its seeded SplitMix64 only.
    .testTarget(name: "PortableMathTests", dependencies: ["PortableMath", "Primitives"], resources: [.copy("Fixtures")]),
    .testTarget(name: "PrimitivesTests", dependencies: ["Primitives"]),
    .testTarget(name: "TypographyTests", dependencies: ["Typography", "CFreeType", "Raster", "Primitives"]),
    .testTarget(
      name: "RasterTests",
      dependencies: ["Raster", "Primitives", "PNGCodec", "DisplayListFixtures", "PortableMath"],
      resources: [.copy("Goldens")]
    ),
    .testTarget(name: "PNGCodecTests", dependencies: ["PNGCodec", "Raster", "Primitives", "TestSupport"]),
    .testTarget(name: "GIFOutputTests", dependencies: ["GIFOutput", "Raster", "Primitives", "TestSupport"]),
    .testTarget(name: "VideoOutputTests", dependencies: ["VideoOutput", "Raster", "Primitives", "TestSupport"]),
    .testTarget(name: "SyntaxTests", dependencies: ["Syntax", "PortableMath"]),
    .testTarget(name: "SceneModelTests", dependencies: ["SceneModel", "Syntax", "Primitives"]),
    .testTarget(name: "LayoutTests", dependencies: ["Layout", "Primitives"]),
    .testTarget(
      name: "RenderTests", dependencies: ["Render", "SceneFiles", "SceneModel", "Raster", "Primitives", "Timing", "PNGCodec"],
      resources: [.copy("Goldens")]),
    .testTarget(
      name: "TimingTests",
      dependencies: ["Timing", "Syntax", "Primitives"],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(name: "PipelineTests", dependencies: ["Pipeline", "Render", "Raster", "Primitives", "SceneModel", "VideoOutput", "TestSupport"]),
    .testTarget(
      name: "ReviewTests", dependencies: ["Review", "Render", "Raster", "Primitives", "SceneModel", "Timing", "Typography", "TestSupport"]),
    .testTarget(
      name: "JobsTests",
      dependencies: ["Jobs", "Pipeline", "Review", "Render", "Raster", "Primitives", "SceneModel", "VideoOutput", "PNGCodec", "TestSupport"]),
    .testTarget(name: "LottieTests", dependencies: ["Lottie", "Primitives", "Raster", "Render", "SceneModel"]),
    .testTarget(name: "PreviewTests", dependencies: ["Preview", "Pipeline", "Render", "SceneFiles", "PNGCodec", "Raster", "TestSupport"]),
    .testTarget(
      name: "RenderCommandTests",
      dependencies: [
        "RenderCommand", "Pipeline", "Render", "SceneFiles", "SceneModel", "Syntax", "VideoOutput", "PNGCodec", "Raster", "TestSupport", "Review",
      ]),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets where [.regular, .executable, .test].contains(target.type) {
  target.swiftSettings = (target.swiftSettings ?? []) + nativeTuning
}

// The test targets are compiled file by file in parallel (not as one whole
// module) and not optimized, even in a release build: scripts/test runs the
// suite against the release build of the modules (fast to run), and the
// tests' own code, large and light, then compiles in a fraction of the
// time. Not RasterTests and RenderTests, whose own references (true
// Gaussians, whole frames compared) run twenty times slower unoptimized.
for target in package.targets where target.type == .test && !["RasterTests", "RenderTests"].contains(target.name) {
  target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone", "-no-whole-module-optimization"], .when(configuration: .release))]
}

// Coverage-guided fuzz targets (docs/fuzzing.md): declared only when
// SPRINGFRAME_FUZZ=1, as scripts/fuzz builds them (libFuzzer and
// AddressSanitizer, in .build-fuzz); never part of the normal build or tests.
if ProcessInfo.processInfo.environment["SPRINGFRAME_FUZZ"].map({ ["", "0"].contains($0) }) == false {
  package.targets += [
    .executableTarget(name: "FuzzScene", dependencies: ["SceneModel", "Render", "Raster"], path: "Fuzz/Targets/Scene"),
    .executableTarget(name: "FuzzAnimation", dependencies: ["Timing", "Syntax", "Primitives"], path: "Fuzz/Targets/Animation"),
    .executableTarget(name: "FuzzTransition", dependencies: ["SceneModel", "Render", "Raster"], path: "Fuzz/Targets/Transition"),
    .executableTarget(name: "FuzzExpression", dependencies: ["Syntax"], path: "Fuzz/Targets/Expression"),
    .executableTarget(name: "FuzzSVGPath", dependencies: ["Primitives", "Raster"], path: "Fuzz/Targets/SVGPath"),
    .executableTarget(name: "FuzzPNG", dependencies: ["PNGCodec", "Raster"], path: "Fuzz/Targets/PNG"),
    .executableTarget(name: "FuzzLottie", dependencies: ["Lottie", "Render", "Raster"], path: "Fuzz/Targets/Lottie"),
  ]
}
