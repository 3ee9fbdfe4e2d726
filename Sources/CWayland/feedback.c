// wp_presentation feedback for the wl_shm chain (feedback.h). The generated protocol code
// (presentation-time.[ch]) is used for its requests; listeners are added past the
// program's own wl_proxy_add_listener (sdldamage.c counts SDL's calls there, not ours).
#include "feedback.h"
#include "wlsymbol.h"
#include <string.h>
#include <wayland-client.h>
#include "presentation-time.h"

static int listen(void *proxy, const void *listener, void *data) {
    return ovs_wl_add_listener_unseen((struct wl_proxy *)proxy, (void (**)(void))listener, data);
}

static void clock_id(void *data, struct wp_presentation *presentation, uint32_t clk_id) {
    (void)presentation;
    ((ovs_wl_feedbacks *)data)->clock = (int)clk_id;
}
static const struct wp_presentation_listener presentation_listener = { clock_id };

int ovs_feedback_bind(ovs_wl_feedbacks *f, struct wl_registry *registry, uint32_t name, const char *interface) {
    if (f->presentation || strcmp(interface, wp_presentation_interface.name) != 0) return 0;
    f->presentation = wl_registry_bind(registry, name, &wp_presentation_interface, 1);
    if (!f->presentation) return 0;
    f->clock = -1;
    listen(f->presentation, &presentation_listener, f);
    return 1;
}

// An answer, into the ring; the oldest not taken goes when it is full (counted in `lost`).
static void hear(ovs_wl_feedbacks *f, ovs_wl_feedback answer) {
    if (f->count == ovs_feedback_heard) {
        f->head = (f->head + 1) % ovs_feedback_heard;
        f->count--;
        f->lost++;
    }
    f->heard[(f->head + f->count) % ovs_feedback_heard] = answer;
    f->count++;
}

// `data` is the slot of `outstanding` the feedback waits in.
static void answered(void *data, ovs_wl_feedback answer) {
    ovs_feedback_slot *slot = data;
    ovs_wl_feedbacks *f = slot->owner;
    answer.sequence = slot->sequence;
    hear(f, answer);
    wp_presentation_feedback_destroy(slot->proxy);
    slot->proxy = NULL;
}

static void sync_output(void *data, struct wp_presentation_feedback *feedback, struct wl_output *output) {
    (void)data, (void)feedback, (void)output;
}

static void presented(void *data, struct wp_presentation_feedback *feedback, uint32_t tv_sec_hi, uint32_t tv_sec_lo,
                      uint32_t tv_nsec, uint32_t refresh, uint32_t seq_hi, uint32_t seq_lo, uint32_t flags) {
    (void)feedback, (void)seq_hi, (void)seq_lo;
    answered(data, (ovs_wl_feedback){ .presented = 1, .seconds = ((uint64_t)tv_sec_hi << 32) | tv_sec_lo,
                                      .nanoseconds = tv_nsec, .refresh_ns = refresh, .flags = flags });
}

static void discarded(void *data, struct wp_presentation_feedback *feedback) {
    (void)feedback;
    answered(data, (ovs_wl_feedback){ .presented = 0 });
}
static const struct wp_presentation_feedback_listener feedback_listener = { sync_output, presented, discarded };

long ovs_feedback_request(ovs_wl_feedbacks *f, struct wl_surface *surface) {
    if (!f->presentation) return 0;
    // A free slot; with none (a compositor that stopped answering: a hidden window), the
    // oldest is given up, and its frame's presentation stays not known.
    int free = -1, oldest = 0;
    for (int i = 0; i < ovs_feedback_outstanding; i++) {
        if (!f->outstanding[i].proxy) { free = i; break; }
        if (f->outstanding[i].sequence < f->outstanding[oldest].sequence) oldest = i;
    }
    if (free < 0) {
        wp_presentation_feedback_destroy(f->outstanding[oldest].proxy);
        f->outstanding[oldest].proxy = NULL;
        f->lost++;
        free = oldest;
    }
    // Made on wp_presentation, which is on the chain's queue: the answers come there.
    struct wp_presentation_feedback *proxy = wp_presentation_feedback(f->presentation, surface);
    if (!proxy) return 0;
    f->sequence++;
    f->outstanding[free].proxy = proxy;
    f->outstanding[free].sequence = f->sequence;
    f->outstanding[free].owner = f;
    listen(proxy, &feedback_listener, &f->outstanding[free]);
    return f->sequence;
}

int ovs_feedback_awaited(const ovs_wl_feedbacks *f) {
    for (int i = 0; i < ovs_feedback_outstanding; i++)
        if (f->outstanding[i].proxy) return 1;
    return 0;
}

int ovs_feedback_take(ovs_wl_feedbacks *f, ovs_wl_feedback *out) {
    if (f->count == 0) return 0;
    *out = f->heard[f->head];
    f->head = (f->head + 1) % ovs_feedback_heard;
    f->count--;
    return 1;
}

void ovs_feedback_destroy(ovs_wl_feedbacks *f) {
    for (int i = 0; i < ovs_feedback_outstanding; i++) {
        if (f->outstanding[i].proxy) wp_presentation_feedback_destroy(f->outstanding[i].proxy);
        f->outstanding[i].proxy = NULL;
    }
    if (f->presentation) wp_presentation_destroy(f->presentation);
    f->presentation = NULL;
}
