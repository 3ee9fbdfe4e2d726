#ifndef OVERSCROLL_CSDL_SHIM_H
#define OVERSCROLL_CSDL_SHIM_H
// pkg-config sdl2 puts /usr/include/SDL2 on the include path; SDL_ttf.h lives there too.
#include <SDL.h>
#include <SDL_ttf.h>
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
#endif
