#define _GNU_SOURCE
#include "wlshm.h"
#include "wlsymbol.h"
#include "feedback.h"
#include "chain.h"
#include "failure.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
// libwayland-client is linked (Debian's libSDL2 links it too, so it is the one copy in
// the process, SDL 3's under sdl2-compat included): requests go through its inline
// protocol functions. Listeners alone are added through the real wl_proxy_add_listener
// (`ovs_wl_add_listener_unseen`, sdldamage.c), past this program's own, which counts SDL's.
#include <wayland-client.h>

_Static_assert(ovs_wl_shm_most <= ovs_chain_most, "the chain holds every buffer");

typedef struct {
    struct wl_shm_pool *pool;       // the buffer's memory, kept to make buffers at other offsets
    struct wl_buffer *buffer;       // `width` x `height` of the pool from pixel (x, y) on
    uint32_t *pixels;               // the pool's first row
    size_t size;
    int columns, width, height, rows, x, y;
    ovs_wl_shm *owner;              // for its release: the owner's chain and count
    int slot;                       // which of the owner's buffers
} Buffer;

struct ovs_wl_shm {
    struct wl_display *display;
    struct wl_event_queue *queue;
    struct wl_surface *surface;     // SDL's
    struct wl_surface *surface_on_queue;  // a wrapper of it whose new objects (frame callbacks) come to our queue
    struct wl_registry *registry;
    struct wl_shm *shm;
    int has_xrgb;
    struct wl_callback *frame;      // the frame callback awaited, or NULL
    Buffer buffers[ovs_wl_shm_most];
    // Which buffer is drawn and which the compositor holds (queued: attached and not yet
    // released) (CBufferChain).
    ovs_chain chain;
    int damage_buffer;              // wl_surface v4: damage in buffer pixels
    long releases;
    ovs_wl_feedbacks feedback;      // wp_presentation, where the compositor offers it
};

static int listen(void *proxy, const void *listener, void *data) {
    return ovs_wl_add_listener_unseen((struct wl_proxy *)proxy, (void (**)(void))listener, data);
}

// MARK: Events

static void shm_format(void *data, struct wl_shm *shm, uint32_t format) {
    (void)shm;
    if (format == WL_SHM_FORMAT_XRGB8888) ((ovs_wl_shm *)data)->has_xrgb = 1;
}
static const struct wl_shm_listener shm_listener = { shm_format };

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                            uint32_t version) {
    (void)registry; (void)version;
    ovs_wl_shm *s = data;
    if (ovs_feedback_bind(&s->feedback, s->registry, name, interface)) return;
    if (s->shm || strcmp(interface, "wl_shm") != 0) return;
    s->shm = wl_registry_bind(s->registry, name, &wl_shm_interface, 1);
    if (s->shm) listen(s->shm, &shm_listener, s);
}
static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data; (void)registry; (void)name;
}
static const struct wl_registry_listener registry_listener = { registry_global, registry_global_remove };

// The compositor is done reading a buffer: it may be drawn into again.
static void buffer_release(void *data, struct wl_buffer *buffer) {
    (void)buffer;
    Buffer *b = data;
    ovs_chain_released(&b->owner->chain, b->slot);
    b->owner->releases++;
}
static const struct wl_buffer_listener buffer_listener = { buffer_release };

static void frame_done(void *data, struct wl_callback *callback, uint32_t time) {
    (void)time;
    ovs_wl_shm *s = data;
    if (callback == s->frame) {
        wl_callback_destroy(s->frame);
        s->frame = NULL;
    }
}
static const struct wl_callback_listener frame_listener = { frame_done };

// MARK: Connection

int ovs_wl_shm_broken(const ovs_wl_shm *s) { return wl_display_get_error(s->display) != 0; }

// Runs our queue's callbacks for what has arrived, reading the socket for at most
// `timeout_ms` if nothing has. -1 on a broken connection, else 0.
static int pump(ovs_wl_shm *s, int timeout_ms) {
    if (wl_display_prepare_read_queue(s->display, s->queue) != 0) {
        // Something was waiting already: run it; the caller looks again.
        return wl_display_dispatch_queue_pending(s->display, s->queue) < 0 ? -1 : 0;
    }
    if (wl_display_flush(s->display) < 0 && errno != EAGAIN) {
        wl_display_cancel_read(s->display);
        return -1;
    }
    struct pollfd fd = { .fd = wl_display_get_fd(s->display), .events = POLLIN };
    int ready = poll(&fd, 1, timeout_ms);
    if (ready <= 0) {
        wl_display_cancel_read(s->display);
        return ready < 0 && errno != EINTR ? -1 : 0;
    }
    // Events for SDL's queue read here wait in it for SDL's next pump.
    if (wl_display_read_events(s->display) < 0) return -1;
    return wl_display_dispatch_queue_pending(s->display, s->queue) < 0 ? -1 : 0;
}

// How the buffers below are made, dropped and waited for (the chain's table, chain.h).
static const ovs_chain_ops chain_ops;

ovs_wl_shm *ovs_wl_shm_create(void *display, void *surface, char *why, int why_size) {
    if (!display || !surface) { ovs_fail(why, why_size, "not a Wayland window"); return NULL; }
    ovs_wl_shm *s = calloc(1, sizeof *s);
    if (!s) { ovs_fail(why, why_size, "out of memory"); return NULL; }
    ovs_chain_init(&s->chain, &chain_ops, s);
    s->display = display;
    s->surface = surface;
    s->queue = wl_display_create_queue(s->display);
    struct wl_display *display_on_queue = wl_proxy_create_wrapper(s->display);
    s->surface_on_queue = wl_proxy_create_wrapper(s->surface);
    if (!s->queue || !display_on_queue || !s->surface_on_queue) {
        if (display_on_queue) wl_proxy_wrapper_destroy(display_on_queue);
        ovs_wl_shm_destroy(s);
        ovs_fail(why, why_size, "cannot make an event queue");
        return NULL;
    }
    wl_proxy_set_queue((struct wl_proxy *)display_on_queue, s->queue);
    wl_proxy_set_queue((struct wl_proxy *)s->surface_on_queue, s->queue);
    s->registry = wl_display_get_registry(display_on_queue);
    wl_proxy_wrapper_destroy(display_on_queue);
    if (s->registry) listen(s->registry, &registry_listener, s);
    // One round trip lists the globals (binding wl_shm), a second its pixel formats.
    if (!s->registry || wl_display_roundtrip_queue(s->display, s->queue) < 0 || !s->shm
        || wl_display_roundtrip_queue(s->display, s->queue) < 0) {
        ovs_wl_shm_destroy(s);
        ovs_fail(why, why_size, "the compositor offers no wl_shm");
        return NULL;
    }
    if (!s->has_xrgb) {
        ovs_wl_shm_destroy(s);
        ovs_fail(why, why_size, "the compositor's wl_shm has no XRGB8888");
        return NULL;
    }
    s->damage_buffer = wl_surface_get_version(s->surface) >= WL_SURFACE_DAMAGE_BUFFER_SINCE_VERSION;
    return s;
}

// MARK: Buffers

static void destroy_buffer(ovs_wl_shm *s, Buffer *b) {
    (void)s;
    if (b->buffer) wl_buffer_destroy(b->buffer);
    b->buffer = NULL;
}

static void drop(ovs_wl_shm *s, Buffer *b) {
    // The compositor keeps its own mapping of a buffer it still reads.
    destroy_buffer(s, b);
    if (b->pool) wl_shm_pool_destroy(b->pool);
    if (b->pixels) munmap(b->pixels, b->size);
    memset(b, 0, sizeof *b);
}

// A wl_buffer of the pool from pixel (x, y) on: a buffer is only a view of the pool's
// memory, so a new one costs a request, not pixels.
static int view(ovs_wl_shm *s, Buffer *b, int x, int y) {
    destroy_buffer(s, b);
    int32_t offset = (int32_t)(((size_t)y * (size_t)b->columns + (size_t)x) * 4);
    struct wl_buffer *buffer = wl_shm_pool_create_buffer(b->pool, offset, b->width, b->height, b->columns * 4,
                                                         WL_SHM_FORMAT_XRGB8888);
    if (!buffer) return 0;
    b->buffer = buffer;
    b->x = x;
    b->y = y;
    listen(buffer, &buffer_listener, b);
    return 1;
}

// What ovs_wl_shm_acquire asks for: `width` x `height` of `rows` rows of `columns`
// pixels, from pixel (x, y) on.
typedef struct { int columns, width, height, rows, x, y; } size_wanted;

static int make(ovs_wl_shm *s, int slot, const size_wanted *want) {
    Buffer *b = &s->buffers[slot];
    int columns = want->columns, rows = want->rows;
    // One row more than the buffer's: libwayland-server takes a buffer's size as its
    // stride times its rows, from its offset on, so one shown from a column past the
    // first (a turned screen's ring of columns) would pass the pool's end by that much
    // (though no pixel it shows lies there) and be refused.
    size_t size = (size_t)columns * 4 * ((size_t)rows + 1);
    int fd = memfd_create("overscroll-wl-shm", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return 0;
    if (ftruncate(fd, (off_t)size) != 0) { close(fd); return 0; }
    // Sealed against shrinking: a compositor may refuse a pool that could shrink under it.
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL);
    void *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED) { close(fd); return 0; }
    struct wl_shm_pool *pool = wl_shm_create_pool(s->shm, fd, (int32_t)size);
    close(fd);      // sent with the request; the compositor has its own descriptor
    if (!pool) { munmap(pixels, size); return 0; }
    *b = (Buffer){ .pool = pool, .pixels = pixels, .size = size, .columns = columns, .width = want->width,
                   .height = want->height, .rows = rows, .owner = s, .slot = slot };
    if (!view(s, b, want->x, want->y)) { drop(s, b); return 0; }
    return 1;
}

// The chain's table (chain.h): the waits' end, a buffer made, fitted, dropped.
static int chain_pump(void *s, int timeout_ms) { return pump(s, timeout_ms); }
static int chain_make(void *s, int slot, const void *want) { return make(s, slot, want); }
static int chain_fits(void *s, int slot, const void *want) {
    const Buffer *b = &((ovs_wl_shm *)s)->buffers[slot];
    const size_wanted *w = want;
    return b->columns == w->columns && b->width == w->width && b->height == w->height && b->rows == w->rows;
}
static void chain_drop(void *s, int slot) { drop(s, &((ovs_wl_shm *)s)->buffers[slot]); }
static const ovs_chain_ops chain_ops = { .pump = chain_pump, .make = chain_make, .fits = chain_fits, .drop = chain_drop };

uint32_t *ovs_wl_shm_acquire(ovs_wl_shm *s, int columns, int width, int height, int rows, int x, int y, int most,
                             int timeout_ms, int *stride, int *index, int *fresh) {
    ovs_chain_cancel(&s->chain);
    if (width <= 0 || height <= 0 || x < 0 || y < 0 || columns < width + x || rows < height + y) return NULL;
    size_wanted want = { columns, width, height, rows, x, y };
    ovs_chain_reshape(&s->chain, &want);
    int slot = ovs_chain_acquire(&s->chain, &want, most < ovs_wl_shm_most ? most : ovs_wl_shm_most, timeout_ms);
    if (slot < 0) return NULL;
    Buffer *b = &s->buffers[slot];
    if ((b->x != x || b->y != y) && !view(s, b, x, y)) {
        ovs_chain_cancel(&s->chain);
        return NULL;
    }
    *stride = b->columns;
    *index = slot;
    *fresh = ovs_chain_take_fresh(&s->chain, slot);
    return b->pixels;
}

void ovs_wl_shm_damage(ovs_wl_shm *s, int x, int y, int width, int height) {
    if (width <= 0 || height <= 0) return;
    if (s->damage_buffer) wl_surface_damage_buffer(s->surface, x, y, width, height);
    else wl_surface_damage(s->surface, x, y, width, height);
}

int ovs_wl_shm_commit(ovs_wl_shm *s) {
    int slot = ovs_chain_cancel(&s->chain);
    if (slot < 0) return -1;
    Buffer *b = &s->buffers[slot];
    if (s->frame) wl_callback_destroy(s->frame);
    // Made through the wrapper: the callback's events come to our queue.
    s->frame = wl_surface_frame(s->surface_on_queue);
    if (s->frame) listen(s->frame, &frame_listener, s);
    ovs_feedback_request(&s->feedback, s->surface);
    wl_surface_attach(s->surface, b->buffer, 0, 0);
    wl_surface_commit(s->surface);
    ovs_chain_queue(&s->chain, slot);
    if (wl_display_flush(s->display) < 0 && errno != EAGAIN) return -1;
    return ovs_wl_shm_broken(s) ? -1 : 0;
}

// The frame callback came: none awaited.
static int frame_came(void *s) { return ((ovs_wl_shm *)s)->frame == NULL; }

int ovs_wl_shm_wait_frame(ovs_wl_shm *s, int timeout_ms) { return ovs_chain_wait(&s->chain, frame_came, s, timeout_ms); }

int ovs_wl_shm_presentation_clock(const ovs_wl_shm *s) {
    return s->feedback.presentation ? s->feedback.clock : -1;
}
long ovs_wl_shm_commit_sequence(const ovs_wl_shm *s) { return s->feedback.sequence; }
long ovs_wl_shm_feedback_lost(const ovs_wl_shm *s) { return s->feedback.lost; }

typedef struct { ovs_wl_shm *s; ovs_wl_feedback *out; } feedback_taking;

// An answer taken (1), or none yet while one is awaited (0), or none awaited (-1: stop).
static int feedback_taken(void *taking) {
    feedback_taking *t = taking;
    if (ovs_feedback_take(&t->s->feedback, t->out)) return 1;
    return ovs_feedback_awaited(&t->s->feedback) ? 0 : -1;
}

int ovs_wl_shm_take_feedback(ovs_wl_shm *s, int timeout_ms, ovs_wl_feedback *out) {
    feedback_taking taking = { s, out };
    return ovs_chain_wait(&s->chain, feedback_taken, &taking, timeout_ms);
}

int ovs_wl_shm_buffers(const ovs_wl_shm *s) { return s->chain.count; }
long ovs_wl_shm_releases(const ovs_wl_shm *s) { return s->releases; }

void ovs_wl_shm_destroy(ovs_wl_shm *s) {
    if (!s) return;
    ovs_chain_clear(&s->chain);
    if (s->frame) wl_callback_destroy(s->frame);
    ovs_feedback_destroy(&s->feedback);
    if (s->shm) wl_shm_destroy(s->shm);
    if (s->registry) wl_registry_destroy(s->registry);
    if (s->surface_on_queue) wl_proxy_wrapper_destroy(s->surface_on_queue);
    if (s->queue) wl_event_queue_destroy(s->queue);
    free(s);
}

int ovs_wl_display_fd(void *display) { return wl_display_get_fd(display); }
int ovs_wl_display_error(void *display) { return wl_display_get_error(display); }

static void no_log(const char *format, va_list arguments) { (void)format, (void)arguments; }
void ovs_wl_silence_log(void) { wl_log_set_handler_client(no_log); }
