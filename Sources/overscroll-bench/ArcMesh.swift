import CSDL
import Glibc

/// An anti-aliased thick arc as an indexed triangle list for `SDL_RenderGeometry`: the way
/// the indicator was once drawn, kept only for the bench's arc figure (what the CPU-rasterized
/// indicator, `IndicatorImage`, is compared against).
///
/// For each step along the arc there are four radii: the inner feather (alpha 0), the
/// inner edge, the outer edge (full alpha) and the outer feather (alpha 0), so each edge
/// fades over one pixel, the way Dear ImGui strokes anti-aliased lines. Buffers are sized
/// once for the maximum segment count and reused: building a frame's arc allocates nothing.
struct ArcMesh {
    public static let maxSegments = 96
    public private(set) var vertices: [SDL_Vertex]
    public private(set) var indices: [Int32]
    public private(set) var vertexCount = 0
    public private(set) var indexCount = 0

    public init() {
        let zero = SDL_Vertex(position: SDL_FPoint(x: 0, y: 0), color: SDL_Color(r: 0, g: 0, b: 0, a: 0),
                              tex_coord: SDL_FPoint(x: 0, y: 0))
        vertices = Array(repeating: zero, count: (Self.maxSegments + 1) * 4 + 64)
        indices = Array(repeating: 0, count: Self.maxSegments * 18 + 192)
    }

    /// Build an arc around (cx, cy) in pixels, `radius` to the middle of the stroke.
    /// Angles in turns, clockwise from 3 o'clock (screen y points down).
    public mutating func build(cx: Double, cy: Double, radius: Double, thickness: Double,
                               startTurns: Double, sweepTurns: Double, color: SDL_Color, opacity: Double) {
        vertexCount = 0
        indexCount = 0
        guard sweepTurns > 0, radius > 0, thickness > 0, opacity > 0 else { return }
        let sweep = min(sweepTurns, 1)
        // About one segment per 4 px of arc length keeps the curve smooth at any density.
        let length = 2 * Double.pi * radius * sweep
        let segments = min(Self.maxSegments, max(4, Int((length / 4).rounded(.up))))
        let half = thickness / 2
        let a = UInt8(max(0, min(255, (Double(color.a) * opacity).rounded())))
        for i in 0...segments {
            let angle = 2 * Double.pi * (startTurns + sweep * Double(i) / Double(segments))
            let c = cos(angle), s = sin(angle)
            for ring in 0..<4 {
                // Rings: inner feather, inner edge, outer edge, outer feather.
                let r = max(0, radius + (ring < 2 ? -half : half) + (ring == 0 ? -1 : ring == 3 ? 1 : 0))
                let alpha = ring == 0 || ring == 3 ? 0 : a
                vertices[vertexCount] = SDL_Vertex(
                    position: SDL_FPoint(x: Float(cx + r * c), y: Float(cy + r * s)),
                    color: SDL_Color(r: color.r, g: color.g, b: color.b, a: alpha),
                    tex_coord: SDL_FPoint(x: 0, y: 0))
                vertexCount += 1
            }
        }
        for i in 0..<segments {
            let base = Int32(i * 4), next = Int32((i + 1) * 4)
            for ring in Int32(0)..<3 {
                let a0 = base + ring, a1 = base + ring + 1, b0 = next + ring, b1 = next + ring + 1
                indices[indexCount] = a0; indices[indexCount + 1] = b0; indices[indexCount + 2] = a1
                indices[indexCount + 3] = a1; indices[indexCount + 4] = b0; indices[indexCount + 5] = b1
                indexCount += 6
            }
        }
    }

    /// A filled, feathered disc (the indicator's backdrop), as a triangle fan in the same buffers.
    public mutating func buildDisc(cx: Double, cy: Double, radius: Double, color: SDL_Color, opacity: Double) {
        vertexCount = 0
        indexCount = 0
        guard radius > 0, opacity > 0 else { return }
        let segments = 32
        let a = UInt8(max(0, min(255, (Double(color.a) * opacity).rounded())))
        vertices[0] = SDL_Vertex(position: SDL_FPoint(x: Float(cx), y: Float(cy)),
                                 color: SDL_Color(r: color.r, g: color.g, b: color.b, a: a), tex_coord: SDL_FPoint(x: 0, y: 0))
        vertexCount = 1
        for i in 0...segments {
            let angle = 2 * Double.pi * Double(i) / Double(segments)
            for ring in 0..<2 {
                let r = radius + Double(ring), alpha = ring == 0 ? a : 0
                vertices[vertexCount] = SDL_Vertex(
                    position: SDL_FPoint(x: Float(cx + r * cos(angle)), y: Float(cy + r * sin(angle))),
                    color: SDL_Color(r: color.r, g: color.g, b: color.b, a: alpha), tex_coord: SDL_FPoint(x: 0, y: 0))
                vertexCount += 1
            }
        }
        for i in 0..<segments {
            let inner = Int32(1 + i * 2), outer = inner + 1, nextInner = inner + 2, nextOuter = inner + 3
            let triangles = (Int32(0), inner, nextInner, inner, outer, nextInner, nextInner, outer, nextOuter)
            withUnsafeBytes(of: triangles) { raw in
                for v in raw.bindMemory(to: Int32.self) {
                    indices[indexCount] = v
                    indexCount += 1
                }
            }
        }
    }

    /// Submit what was built.
    public func draw(_ renderer: OpaquePointer) {
        guard indexCount > 0 else { return }
        // Untextured geometry uses the draw blend mode; the feathered edges need blending.
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        vertices.withUnsafeBufferPointer { v in
            indices.withUnsafeBufferPointer { i in
                _ = SDL_RenderGeometry(renderer, nil, v.baseAddress, Int32(vertexCount), i.baseAddress, Int32(indexCount))
            }
        }
    }
}
