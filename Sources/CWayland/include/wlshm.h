#ifndef OVERSCROLL_WLSHM_H
#define OVERSCROLL_WLSHM_H
#include <stdint.h>

// Frames shown on a Wayland surface from buffers in memory shared with the compositor
// (wl_shm), without OpenGL: the CPU path's counterpart of X11's MIT-SHM. libwayland-client
// is linked: Debian's libSDL2 links it too (SDL 3 under sdl2-compat as well), so it is
// loaded in every run and there is one copy, the one SDL's window lives in.
//
// Our requests and the compositor's answers to them travel on an event queue of our own,
// so SDL's event pump never runs our callbacks and we never run SDL's.
typedef struct ovs_wl_shm ovs_wl_shm;

// Buffers for `surface` (SDL's wl_surface) on `display` (SDL's wl_display). NULL when
// they cannot be had (no wl_shm, no XRGB8888); then `why`
// says why.
ovs_wl_shm *ovs_wl_shm_create(void *display, void *surface, char *why, int why_size);

// A buffer `width` x `height` (XRGB8888, little-endian 0xXXRRGGBB) the compositor is not
// reading: one released, else a new one while there are fewer than `most` (at most
// `ovs_wl_shm_most`),
// else the first released within `timeout_ms`. Each buffer shows `width` x `height` of
// `rows` rows of `columns` pixels of memory of its own, from pixel (`x`, `y`) on
// (`columns` >= `width` + `x`, `rows` >= `height` + `y`; moving it costs a request, no
// pixels: a ring of rows, or of columns on a turned screen). Buffers of another size
// are dropped.
// Returns its memory's first row, `*stride` pixels from one row to the next, and
// `*index` (which buffer, for the caller's record of what each holds; `*fresh` is 1
// when its pixels are new and undefined). NULL on a broken connection or when none came
// free in time.
uint32_t *ovs_wl_shm_acquire(ovs_wl_shm *shm, int columns, int width, int height, int rows, int x, int y,
                             int most, int timeout_ms, int *stride, int *index, int *fresh);
enum { ovs_wl_shm_most = 3 };

// Marks a rectangle of the acquired buffer as changed since the frame shown before it.
void ovs_wl_shm_damage(ovs_wl_shm *shm, int x, int y, int width, int height);

// Attaches the acquired buffer, asks for a frame callback, commits and flushes: one
// commit a frame. 0, or -1 on a broken connection.
int ovs_wl_shm_commit(ovs_wl_shm *shm);

// Waits until the compositor says the last commit is a good time to draw the next
// (wl_surface.frame), at most `timeout_ms`: 1 when it did (or nothing is awaited),
// 0 on timeout (a hidden window gets no callbacks), -1 on a broken connection.
int ovs_wl_shm_wait_frame(ovs_wl_shm *shm, int timeout_ms);

// What the compositor said of one commit's trip to the screen (wp_presentation_feedback,
// presentation-time): shown (its time in the compositor's presentation clock, the refresh,
// the flags) or discarded (never shown: a newer commit replaced it first).
typedef struct {
    long sequence;          // the commit's number (ovs_wl_shm_commit_sequence after it)
    int presented;          // 1: presented; 0: discarded
    uint64_t seconds;       // tv_sec_hi << 32 | tv_sec_lo
    uint32_t nanoseconds;   // tv_nsec
    uint32_t refresh_ns;    // the output's refresh period, 0 when it has none fixed
    uint32_t flags;         // wp_presentation_feedback.kind: vsync 1, hw_clock 2, hw_completion 4, zero_copy 8
} ovs_wl_feedback;

// The clock the compositor stamps presentations with (wp_presentation.clock_id, a
// clockid_t); -1 where it offers no wp_presentation.
int ovs_wl_shm_presentation_clock(const ovs_wl_shm *shm);
// How many commits asked for presentation feedback so far: the last one's number.
long ovs_wl_shm_commit_sequence(const ovs_wl_shm *shm);
// The oldest answer not yet taken: 1 with *out, 0 when none came. Reads what arrived;
// while an answer is awaited and none came, waits for one at most `timeout_ms`.
// -1 on a broken connection.
int ovs_wl_shm_take_feedback(ovs_wl_shm *shm, int timeout_ms, ovs_wl_feedback *out);
// Answers the program never took or never got (a ring of them overflowed).
long ovs_wl_shm_feedback_lost(const ovs_wl_shm *shm);

// Whether the connection to the compositor is broken (it died, or a protocol error).
int ovs_wl_shm_broken(const ovs_wl_shm *shm);

// How many buffers exist now, and how many the compositor has released so far (tests).
int ovs_wl_shm_buffers(const ovs_wl_shm *shm);
long ovs_wl_shm_releases(const ovs_wl_shm *shm);

void ovs_wl_shm_destroy(ovs_wl_shm *shm);
// From now on, SDL's whole-surface damage at each frame callback of the window whose
// wl_surface is `surface` stops (sdldamage.c says why and how); NULL lets it be again.
// Returns 0 where it cannot (libwayland-client not loaded).
int ovs_wl_quiet_sdl_damage(void *surface);
// How many wl_proxy_add_listener calls (SDL's: the program's own go to the library) the
// interposer passed on so far: 0 means SDL's calls do not reach it, so the cut cannot
// take effect.
long ovs_wl_listeners_passed_on(void);

// SDL's wl_display (`display`): its socket, and whether it failed (the compositor hung
// up or refused a request): non-zero then.
int ovs_wl_display_fd(void *display);
int ovs_wl_display_error(void *display);
// Sends libwayland-client's own log lines to nowhere (SDLMessages).
void ovs_wl_silence_log(void);

#endif
