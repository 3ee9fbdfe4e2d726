#ifndef OVERSCROLL_CSDL_SHIM_H
#define OVERSCROLL_CSDL_SHIM_H
// pkg-config sdl2 puts /usr/include/SDL2 on the include path; SDL_ttf.h lives there too.
#include <SDL.h>
#include <SDL_ttf.h>
// Only SDL_Vulkan_LoadLibrary: the Wayland CPU path's window without OpenGL (GLFreeWindow).
#include <SDL_vulkan.h>
// The text layer: fontconfig finds fonts for characters the UI font lacks, fribidi orders
// right-to-left text, HarfBuzz (already under SDL_ttf) names each character's script.
#include <fontconfig/fontconfig.h>
#include <fribidi/fribidi.h>
#include <harfbuzz/hb.h>

// Function-like and compound macros do not import into Swift; re-export them here so the
// values stay tied to the header instead of being copied as literals.
static const int    CSDL_WINDOWPOS_CENTERED  = SDL_WINDOWPOS_CENTERED;
static const int    CSDL_WINDOWPOS_UNDEFINED = SDL_WINDOWPOS_UNDEFINED;
static const Uint32 CSDL_TOUCH_MOUSEID       = SDL_TOUCH_MOUSEID;
static const Sint64 CSDL_MOUSE_TOUCHID       = SDL_MOUSE_TOUCHID;
static const Uint16 CSDL_AUDIO_F32SYS        = AUDIO_F32SYS;

// fribidi's paragraph directions are macros built from other macros.
static const FriBidiParType CSDL_FRIBIDI_PAR_ON  = FRIBIDI_PAR_ON;
static const FriBidiParType CSDL_FRIBIDI_PAR_RTL = FRIBIDI_PAR_RTL;

static inline int CSDL_WindowPosCenteredDisplay(int display) {
    return (int)SDL_WINDOWPOS_CENTERED_DISPLAY(display);
}
// The window's native connection (the X11 Display* or the Wayland wl_display*), for
// noticing a lost display and the screen's real size. SDL_syswm.h would bring in Xlib,
// whose `Display` and `Window` clash with names on the Swift side; only the connection is
// needed, and it leads the union for both drivers. The union is given ample room.
struct SDL_SysWMinfo;
extern DECLSPEC SDL_bool SDLCALL SDL_GetWindowWMInfo(SDL_Window *window, struct SDL_SysWMinfo *info);
typedef struct CSDL_WMInfo {
    SDL_version version;
    int subsystem;
    // X11: Display *, then the window's XID; Wayland: wl_display *, then wl_surface *.
    union { struct { void *connection; unsigned long window; } native; Uint8 room[512]; } info;
} CSDL_WMInfo;
static const int CSDL_SYSWM_X11 = 2;
static const int CSDL_SYSWM_WAYLAND = 6;

static inline int CSDL_NativeConnection(SDL_Window *window, int *subsystem, void **connection) {
    CSDL_WMInfo info;
    SDL_memset(&info, 0, sizeof info);
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, (struct SDL_SysWMinfo *)&info)) return 0;
    *subsystem = info.subsystem;
    *connection = info.info.native.connection;
    return 1;
}

// An SDL_SYSWMEVENT's message (SDL_SysWMmsg), mirrored as SDL_SysWMinfo is above: the
// version, the subsystem, then on X11 the XEvent, whose leading members every X event
// shares (XAnyEvent: type, serial, send_event, display, window).
typedef struct CSDL_WMMessage {
    SDL_version version;
    int subsystem;
    union { struct { int type; unsigned long serial; int send_event; void *display; unsigned long window; } any; Uint8 room[192]; } msg;
} CSDL_WMMessage;

// Whether the event is X11's ConfigureNotify (22) for `root`: the screen changed size.
static inline int CSDL_X11RootConfigured(const SDL_Event *event, unsigned long root) {
    if (event->type != SDL_SYSWMEVENT || root == 0 || !event->syswm.msg) return 0;
    const CSDL_WMMessage *message = (const CSDL_WMMessage *)event->syswm.msg;
    return message->subsystem == CSDL_SYSWM_X11 && message->msg.any.type == 22 && message->msg.any.window == root;
}

// The X11 window's XID (0 on other drivers), for drawing requests of our own on it.
static inline unsigned long CSDL_X11Window(SDL_Window *window) {
    CSDL_WMInfo info;
    SDL_memset(&info, 0, sizeof info);
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, (struct SDL_SysWMinfo *)&info) || info.subsystem != CSDL_SYSWM_X11) return 0;
    return info.info.native.window;
}

// The Wayland window's wl_surface (NULL on other drivers), for the CPU path's own buffers.
static inline void *CSDL_WaylandSurface(SDL_Window *window) {
    CSDL_WMInfo info;
    SDL_memset(&info, 0, sizeof info);
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, (struct SDL_SysWMinfo *)&info) || info.subsystem != CSDL_SYSWM_WAYLAND) return NULL;
    return (void *)info.info.native.window;
}
#endif
