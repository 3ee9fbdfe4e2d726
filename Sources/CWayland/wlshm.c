#define _GNU_SOURCE
#include "wlshm.h"
#include "wlsymbol.h"
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
// Only the protocol's types, opcodes and listener structs are used from these headers:
// their inline request functions would call libwayland-client directly (linked), so the
// requests are marshalled below through the functions looked up at run time.
#include <wayland-client-core.h>
#include <wayland-client-protocol.h>

typedef struct wl_proxy *(*MarshalFlagsFn)(struct wl_proxy *, uint32_t, const struct wl_interface *, uint32_t,
                                           uint32_t, ...);

// libwayland-client's functions and interfaces, from the copy SDL loaded.
typedef struct {
    MarshalFlagsFn marshal_flags;
    int (*add_listener)(struct wl_proxy *, void (**)(void), void *);
    void (*destroy)(struct wl_proxy *);
    uint32_t (*get_version)(struct wl_proxy *);
    void *(*create_wrapper)(void *);
    void (*wrapper_destroy)(void *);
    void (*set_queue)(struct wl_proxy *, struct wl_event_queue *);
    struct wl_event_queue *(*create_queue)(struct wl_display *);
    void (*queue_destroy)(struct wl_event_queue *);
    int (*roundtrip_queue)(struct wl_display *, struct wl_event_queue *);
    int (*dispatch_queue_pending)(struct wl_display *, struct wl_event_queue *);
    int (*prepare_read_queue)(struct wl_display *, struct wl_event_queue *);
    int (*read_events)(struct wl_display *);
    void (*cancel_read)(struct wl_display *);
    int (*flush)(struct wl_display *);
    int (*get_fd)(struct wl_display *);
    int (*get_error)(struct wl_display *);
    const struct wl_interface *registry, *shm, *pool, *buffer, *callback;
} Wayland;

typedef struct {
    struct wl_proxy *pool;          // the buffer's memory, kept to make buffers at other offsets
    struct wl_buffer *buffer;       // `height` rows of the pool from row `offset` on
    uint32_t *pixels;               // the pool's first row
    size_t size;
    int width, height, stride, rows, offset;
    int busy;      // attached and not yet released by the compositor
    int fresh;     // never handed out: its pixels are undefined
    long *releases;    // the owner's count
} Buffer;

struct ovs_wl_shm {
    Wayland wl;
    struct wl_display *display;
    struct wl_event_queue *queue;
    struct wl_surface *surface;     // SDL's
    struct wl_proxy *surface_on_queue;  // a wrapper of it whose new objects (frame callbacks) come to our queue
    struct wl_proxy *registry;
    struct wl_proxy *shm;
    int has_xrgb;
    struct wl_proxy *frame;         // the frame callback awaited, or NULL
    Buffer buffers[ovs_wl_shm_most];
    int count;
    int current;                    // the acquired buffer, -1 when none
    int damage_buffer;              // wl_surface v4: damage in buffer pixels
    long releases;
};

// In the library itself, never by RTLD_NEXT or the global scope: SDL 3 (under sdl2-compat)
// is opened with dlopen, and the libwayland-client it brings is in no scope this program
// searches (sdldamage.c uses this too).
void *ovs_wl_symbol(const char *name) {
    void *handle = dlopen("libwayland-client.so.0", RTLD_LAZY | RTLD_NOLOAD);
    if (!handle) return NULL;
    void *address = dlsym(handle, name);
    dlclose(handle);    // SDL holds its own reference: the library stays loaded
    return address;
}

static int load(Wayland *wl) {
#define LOAD(field, name) if (!(*(void **)&wl->field = ovs_wl_symbol(name))) return 0
    LOAD(marshal_flags, "wl_proxy_marshal_flags");
    LOAD(add_listener, "wl_proxy_add_listener");
    LOAD(destroy, "wl_proxy_destroy");
    LOAD(get_version, "wl_proxy_get_version");
    LOAD(create_wrapper, "wl_proxy_create_wrapper");
    LOAD(wrapper_destroy, "wl_proxy_wrapper_destroy");
    LOAD(set_queue, "wl_proxy_set_queue");
    LOAD(create_queue, "wl_display_create_queue");
    LOAD(queue_destroy, "wl_event_queue_destroy");
    LOAD(roundtrip_queue, "wl_display_roundtrip_queue");
    LOAD(dispatch_queue_pending, "wl_display_dispatch_queue_pending");
    LOAD(prepare_read_queue, "wl_display_prepare_read_queue");
    LOAD(read_events, "wl_display_read_events");
    LOAD(cancel_read, "wl_display_cancel_read");
    LOAD(flush, "wl_display_flush");
    LOAD(get_fd, "wl_display_get_fd");
    LOAD(get_error, "wl_display_get_error");
    // The protocol's interfaces are data in the library, found the same way.
    LOAD(registry, "wl_registry_interface");
    LOAD(shm, "wl_shm_interface");
    LOAD(pool, "wl_shm_pool_interface");
    LOAD(buffer, "wl_buffer_interface");
    LOAD(callback, "wl_callback_interface");
#undef LOAD
    return 1;
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
    if (s->shm || strcmp(interface, "wl_shm") != 0) return;
    s->shm = s->wl.marshal_flags(s->registry, WL_REGISTRY_BIND, s->wl.shm, 1, 0, name, s->wl.shm->name, 1u, NULL);
    if (s->shm) s->wl.add_listener(s->shm, (void (**)(void))&shm_listener, s);
}
static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data; (void)registry; (void)name;
}
static const struct wl_registry_listener registry_listener = { registry_global, registry_global_remove };

// The compositor is done reading a buffer: it may be drawn into again.
static void buffer_release(void *data, struct wl_buffer *buffer) {
    (void)buffer;
    Buffer *b = data;
    b->busy = 0;
    (*b->releases)++;
}
static const struct wl_buffer_listener buffer_listener = { buffer_release };

static void frame_done(void *data, struct wl_callback *callback, uint32_t time) {
    (void)time;
    ovs_wl_shm *s = data;
    if ((struct wl_proxy *)callback == s->frame) {
        s->wl.destroy(s->frame);
        s->frame = NULL;
    }
}
static const struct wl_callback_listener frame_listener = { frame_done };

// MARK: Connection

int ovs_wl_shm_broken(const ovs_wl_shm *s) { return s->wl.get_error(s->display) != 0; }

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1000 + (double)t.tv_nsec / 1e6;
}

// Runs our queue's callbacks for what has arrived, reading the socket for at most
// `timeout_ms` if nothing has. -1 on a broken connection, else 0.
static int pump(ovs_wl_shm *s, int timeout_ms) {
    if (s->wl.prepare_read_queue(s->display, s->queue) != 0) {
        // Something was waiting already: run it; the caller looks again.
        return s->wl.dispatch_queue_pending(s->display, s->queue) < 0 ? -1 : 0;
    }
    if (s->wl.flush(s->display) < 0 && errno != EAGAIN) {
        s->wl.cancel_read(s->display);
        return -1;
    }
    struct pollfd fd = { .fd = s->wl.get_fd(s->display), .events = POLLIN };
    int ready = poll(&fd, 1, timeout_ms);
    if (ready <= 0) {
        s->wl.cancel_read(s->display);
        return ready < 0 && errno != EINTR ? -1 : 0;
    }
    // Events for SDL's queue read here wait in it for SDL's next pump.
    if (s->wl.read_events(s->display) < 0) return -1;
    return s->wl.dispatch_queue_pending(s->display, s->queue) < 0 ? -1 : 0;
}

static void fail(char *why, int why_size, const char *reason) {
    if (why && why_size > 0) snprintf(why, (size_t)why_size, "%s", reason);
}

ovs_wl_shm *ovs_wl_shm_create(void *display, void *surface, char *why, int why_size) {
    if (!display || !surface) { fail(why, why_size, "not a Wayland window"); return NULL; }
    ovs_wl_shm *s = calloc(1, sizeof *s);
    if (!s) { fail(why, why_size, "out of memory"); return NULL; }
    s->current = -1;
    s->display = display;
    s->surface = surface;
    if (!load(&s->wl)) {
        free(s);
        fail(why, why_size, "libwayland-client 1.20 or later is not loaded");
        return NULL;
    }
    s->queue = s->wl.create_queue(s->display);
    struct wl_proxy *display_on_queue = s->wl.create_wrapper(s->display);
    s->surface_on_queue = s->wl.create_wrapper(s->surface);
    if (!s->queue || !display_on_queue || !s->surface_on_queue) {
        if (display_on_queue) s->wl.wrapper_destroy(display_on_queue);
        ovs_wl_shm_destroy(s);
        fail(why, why_size, "cannot make an event queue");
        return NULL;
    }
    s->wl.set_queue(display_on_queue, s->queue);
    s->wl.set_queue(s->surface_on_queue, s->queue);
    s->registry = s->wl.marshal_flags(display_on_queue, WL_DISPLAY_GET_REGISTRY, s->wl.registry,
                                      s->wl.get_version(display_on_queue), 0, NULL);
    s->wl.wrapper_destroy(display_on_queue);
    if (s->registry) s->wl.add_listener(s->registry, (void (**)(void))&registry_listener, s);
    // One round trip lists the globals (binding wl_shm), a second its pixel formats.
    if (!s->registry || s->wl.roundtrip_queue(s->display, s->queue) < 0 || !s->shm
        || s->wl.roundtrip_queue(s->display, s->queue) < 0) {
        ovs_wl_shm_destroy(s);
        fail(why, why_size, "the compositor offers no wl_shm");
        return NULL;
    }
    if (!s->has_xrgb) {
        ovs_wl_shm_destroy(s);
        fail(why, why_size, "the compositor's wl_shm has no XRGB8888");
        return NULL;
    }
    s->damage_buffer = s->wl.get_version((struct wl_proxy *)s->surface) >= WL_SURFACE_DAMAGE_BUFFER_SINCE_VERSION;
    return s;
}

// MARK: Buffers

static void destroy_buffer(ovs_wl_shm *s, Buffer *b) {
    if (b->buffer) s->wl.marshal_flags((struct wl_proxy *)b->buffer, WL_BUFFER_DESTROY, NULL,
                                       s->wl.get_version((struct wl_proxy *)b->buffer), WL_MARSHAL_FLAG_DESTROY);
    b->buffer = NULL;
}

static void drop(ovs_wl_shm *s, Buffer *b) {
    // The compositor keeps its own mapping of a buffer it still reads.
    destroy_buffer(s, b);
    if (b->pool) s->wl.marshal_flags(b->pool, WL_SHM_POOL_DESTROY, NULL, s->wl.get_version(b->pool), WL_MARSHAL_FLAG_DESTROY);
    if (b->pixels) munmap(b->pixels, b->size);
    memset(b, 0, sizeof *b);
}

// A wl_buffer of the pool's rows from `offset` on: a buffer is only a view of the pool's
// memory, so a new one costs a request, not pixels.
static int view(ovs_wl_shm *s, Buffer *b, int offset) {
    destroy_buffer(s, b);
    struct wl_proxy *buffer = s->wl.marshal_flags(b->pool, WL_SHM_POOL_CREATE_BUFFER, s->wl.buffer, s->wl.get_version(b->pool), 0,
                                                  NULL, offset * b->width * 4, b->width, b->height, b->width * 4,
                                                  (uint32_t)WL_SHM_FORMAT_XRGB8888);
    if (!buffer) return 0;
    b->buffer = (struct wl_buffer *)buffer;
    b->offset = offset;
    b->busy = 0;
    s->wl.add_listener(buffer, (void (**)(void))&buffer_listener, b);
    return 1;
}

static int make(ovs_wl_shm *s, Buffer *b, int width, int height, int rows, int offset) {
    int stride = width * 4;
    size_t size = (size_t)stride * (size_t)rows;
    int fd = memfd_create("overscroll-wl-shm", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return 0;
    if (ftruncate(fd, (off_t)size) != 0) { close(fd); return 0; }
    // Sealed against shrinking: a compositor may refuse a pool that could shrink under it.
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL);
    void *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED) { close(fd); return 0; }
    struct wl_proxy *pool = s->wl.marshal_flags(s->shm, WL_SHM_CREATE_POOL, s->wl.pool, s->wl.get_version(s->shm), 0,
                                                NULL, fd, (int32_t)size);
    close(fd);      // sent with the request; the compositor has its own descriptor
    if (!pool) { munmap(pixels, size); return 0; }
    *b = (Buffer){ .pool = pool, .pixels = pixels, .size = size, .width = width, .height = height, .stride = width,
                   .rows = rows, .busy = 0, .fresh = 1, .releases = &s->releases };
    if (!view(s, b, offset)) { drop(s, b); return 0; }
    return 1;
}

uint32_t *ovs_wl_shm_acquire(ovs_wl_shm *s, int width, int height, int rows, int offset, int most, int timeout_ms,
                             int *stride, int *index, int *fresh) {
    s->current = -1;
    if (width <= 0 || height <= 0 || offset < 0 || rows < height + offset) return NULL;
    for (int i = 0; i < s->count; i++) {
        if (s->buffers[i].width != width || s->buffers[i].height != height || s->buffers[i].rows != rows) {
            for (int j = 0; j < s->count; j++) drop(s, &s->buffers[j]);
            s->count = 0;
            break;
        }
    }
    double deadline = now_ms() + timeout_ms;
    for (;;) {
        if (pump(s, 0) < 0) return NULL;
        for (int i = 0; i < s->count; i++) {
            if (s->buffers[i].busy) continue;
            s->current = i;
            break;
        }
        if (s->current < 0 && s->count < most && s->count < ovs_wl_shm_most) {
            if (!make(s, &s->buffers[s->count], width, height, rows, offset)) return NULL;
            s->current = s->count++;
        }
        if (s->current >= 0) break;
        double left = deadline - now_ms();
        if (left <= 0) return NULL;
        if (pump(s, (int)left + 1) < 0) return NULL;
    }
    Buffer *b = &s->buffers[s->current];
    if (b->offset != offset && !view(s, b, offset)) {
        s->current = -1;
        return NULL;
    }
    *stride = b->stride;
    *index = s->current;
    *fresh = b->fresh;
    b->fresh = 0;
    return b->pixels;
}

void ovs_wl_shm_damage(ovs_wl_shm *s, int x, int y, int width, int height) {
    if (width <= 0 || height <= 0) return;
    uint32_t opcode = s->damage_buffer ? WL_SURFACE_DAMAGE_BUFFER : WL_SURFACE_DAMAGE;
    struct wl_proxy *surface = (struct wl_proxy *)s->surface;
    s->wl.marshal_flags(surface, opcode, NULL, s->wl.get_version(surface), 0, x, y, width, height);
}

int ovs_wl_shm_commit(ovs_wl_shm *s) {
    if (s->current < 0) return -1;
    Buffer *b = &s->buffers[s->current];
    struct wl_proxy *surface = (struct wl_proxy *)s->surface;
    uint32_t version = s->wl.get_version(surface);
    if (s->frame) s->wl.destroy(s->frame);
    s->frame = s->wl.marshal_flags(s->surface_on_queue, WL_SURFACE_FRAME, s->wl.callback, version, 0, NULL);
    if (s->frame) s->wl.add_listener(s->frame, (void (**)(void))&frame_listener, s);
    s->wl.marshal_flags(surface, WL_SURFACE_ATTACH, NULL, version, 0, b->buffer, 0, 0);
    s->wl.marshal_flags(surface, WL_SURFACE_COMMIT, NULL, version, 0);
    b->busy = 1;
    s->current = -1;
    if (s->wl.flush(s->display) < 0 && errno != EAGAIN) return -1;
    return ovs_wl_shm_broken(s) ? -1 : 0;
}

int ovs_wl_shm_wait_frame(ovs_wl_shm *s, int timeout_ms) {
    double deadline = now_ms() + timeout_ms;
    for (;;) {
        if (pump(s, 0) < 0) return -1;
        if (!s->frame) return 1;
        double left = deadline - now_ms();
        if (left <= 0) return 0;
        if (pump(s, (int)left + 1) < 0) return -1;
    }
}

int ovs_wl_shm_buffers(const ovs_wl_shm *s) { return s->count; }
long ovs_wl_shm_releases(const ovs_wl_shm *s) { return s->releases; }

void ovs_wl_shm_destroy(ovs_wl_shm *s) {
    if (!s) return;
    for (int i = 0; i < s->count; i++) drop(s, &s->buffers[i]);
    if (s->frame) s->wl.destroy(s->frame);
    if (s->shm) s->wl.destroy(s->shm);
    if (s->registry) s->wl.destroy(s->registry);
    if (s->surface_on_queue) s->wl.wrapper_destroy(s->surface_on_queue);
    if (s->queue) s->wl.queue_destroy(s->queue);
    free(s);
}
