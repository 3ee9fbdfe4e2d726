#ifndef OVERSCROLL_FEEDBACK_H
#define OVERSCROLL_FEEDBACK_H
// wp_presentation (presentation-time, stable) for the wl_shm chain: one feedback object a
// commit, its answer (presented, with the time, refresh and flags; or discarded) kept in
// a fixed ring until the chain's owner takes it. Nothing here allocates but libwayland's
// own proxies, one a commit, destroyed when answered.
#include <stdint.h>
#include "wlshm.h"
struct wl_registry;
struct wl_surface;
struct wp_presentation;
struct wp_presentation_feedback;

enum { ovs_feedback_outstanding = 8, ovs_feedback_heard = 16 };

typedef struct {
    struct wp_presentation_feedback *proxy;   // NULL: a free slot
    long sequence;
    void *owner;                              // the ovs_wl_feedbacks, for the listener
} ovs_feedback_slot;

typedef struct {
    struct wp_presentation *presentation;   // NULL: the compositor offers none
    int clock;                               // its clock_id, -1 until it says
    long sequence;                           // feedbacks asked for so far
    ovs_feedback_slot outstanding[ovs_feedback_outstanding];
    ovs_wl_feedback heard[ovs_feedback_heard];
    int head, count;
    long lost;                               // answers never taken: a ring overflowed
} ovs_wl_feedbacks;

// From the registry listener: binds wp_presentation where `interface` names it. 1 if it did.
int ovs_feedback_bind(ovs_wl_feedbacks *f, struct wl_registry *registry, uint32_t name, const char *interface);
// Before a commit of `surface`: asks what becomes of it. Returns its number (0: none asked).
long ovs_feedback_request(ovs_wl_feedbacks *f, struct wl_surface *surface);
// Whether a feedback is asked for and not answered yet.
int ovs_feedback_awaited(const ovs_wl_feedbacks *f);
// The oldest answer not taken yet: 1 and *out; 0 when none.
int ovs_feedback_take(ovs_wl_feedbacks *f, ovs_wl_feedback *out);
void ovs_feedback_destroy(ovs_wl_feedbacks *f);
#endif
