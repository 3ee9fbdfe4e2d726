/// What `--renderer` asks for.
public enum RendererChoice: String, CaseIterable, Sendable {
    /// The GPU where there is a real one, else the CPU.
    case auto
    /// An accelerated SDL renderer (OpenGL, GLES2), whatever rasterizes it.
    case gpu
    /// SDL's window surface, drawn by the CPU: no OpenGL, no Mesa loaded.
    case cpu
}

/// Who draws the frames a presenter shows. On a machine without a GPU, OpenGL is Mesa's
/// llvmpipe: it spends more CPU than the drawing itself, on threads of its own, and maps
/// libLLVM (its size: docs/performance.md, "Figures behind the code's comments"). Drawing into plain memory (XShm on X11, wl_shm on Wayland) costs a
/// fraction of that and lets a frame present only the rectangles that changed.
public enum RenderPath: String, Sendable {
    case cpu
    case gpu
}
