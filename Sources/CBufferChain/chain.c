// chain.h says what this is for.
#include "chain.h"
#include <time.h>

double ovs_chain_monotonic_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1000 + (double)t.tv_nsec / 1e6;
}

static double now_ms(const ovs_chain *c) {
    return c->ops->now_ms ? c->ops->now_ms(c->owner) : ovs_chain_monotonic_ms();
}

void ovs_chain_init(ovs_chain *c, const ovs_chain_ops *ops, void *owner) {
    *c = (ovs_chain){ .ops = ops, .owner = owner, .current = -1 };
}

void ovs_chain_clear(ovs_chain *c) {
    for (int i = 0; i < c->count; i++) c->ops->drop(c->owner, i);
    for (int i = 0; i < ovs_chain_most; i++) c->state[i] = c->fresh[i] = 0;
    c->count = 0;
    c->current = -1;
}

int ovs_chain_reshape(ovs_chain *c, const void *want) {
    for (int i = 0; i < c->count; i++) {
        if (c->ops->fits(c->owner, i, want)) continue;
        // Another size: all go, the one on the screen too.
        ovs_chain_clear(c);
        return 1;
    }
    return 0;
}

int ovs_chain_trim(ovs_chain *c, int most) {
    for (int i = most; i < c->count; i++)
        if (c->state[i] == ovs_chain_queued || c->state[i] == ovs_chain_shown) return 0;
    for (int i = c->count - 1; i >= most; i--) {
        c->ops->drop(c->owner, i);
        c->state[i] = c->fresh[i] = 0;
        if (c->current == i) c->current = -1;
    }
    if (c->count > most) c->count = most;
    return 1;
}

int ovs_chain_cancel(ovs_chain *c) {
    int slot = c->current;
    c->current = -1;
    if (slot >= 0 && c->state[slot] == ovs_chain_drawn) c->state[slot] = ovs_chain_free;
    return slot;
}

static int first_free(const ovs_chain *c) {
    for (int i = 0; i < c->count; i++)
        if (c->state[i] == ovs_chain_free) return i;
    return -1;
}

int ovs_chain_acquire(ovs_chain *c, const void *want, int most, int timeout_ms) {
    ovs_chain_cancel(c);
    double deadline = now_ms(c) + timeout_ms;
    for (;;) {
        if (c->ops->pump(c->owner, 0) < 0) return ovs_chain_lost;
        int slot = first_free(c);
        if (slot < 0 && c->count < most && c->count < ovs_chain_most) {
            if (!c->ops->make(c->owner, c->count, want)) return ovs_chain_unmade;
            slot = c->count++;
            c->fresh[slot] = 1;
        }
        // Allowed one buffer only (DRM's driver had memory for no second: RingRoom's
        // last step), that one is drawn where it is shown, once no flip of it is pending.
        if (slot < 0 && most == 1 && c->count == 1 && c->state[0] == ovs_chain_shown) slot = 0;
        if (slot >= 0) {
            c->state[slot] = ovs_chain_drawn;
            c->current = slot;
            return slot;
        }
        double left = deadline - now_ms(c);
        if (left <= 0) {
            if (ovs_chain_is_stalled(c)) return ovs_chain_stalled;
            // What it says shows later (a lost device is broken): the frame is missed either way.
            if (c->ops->silent) c->ops->silent(c->owner);
            return ovs_chain_timed_out;
        }
        // One more millisecond: poll's whole milliseconds would wake just short of it.
        if (c->ops->pump(c->owner, (int)left + 1) < 0) return ovs_chain_lost;
    }
}

int ovs_chain_take_fresh(ovs_chain *c, int slot) {
    int fresh = c->fresh[slot];
    c->fresh[slot] = 0;
    return fresh;
}

void ovs_chain_spoil(ovs_chain *c, int slot) {
    if (slot >= 0) { c->fresh[slot] = 1; return; }
    for (int i = 0; i < c->count; i++) c->fresh[i] = 1;
}

void ovs_chain_queue(ovs_chain *c, int slot) {
    if (c->ops->one_queued)
        for (int i = 0; i < c->count; i++)
            if (c->state[i] == ovs_chain_queued) c->state[i] = ovs_chain_free;
    c->state[slot] = ovs_chain_queued;
    c->queued_ms = now_ms(c);
}

void ovs_chain_show(ovs_chain *c, int slot) {
    ovs_chain_forget(c);
    c->state[slot] = ovs_chain_shown;
}

int ovs_chain_flipped(ovs_chain *c) {
    int queued = -1;
    for (int i = 0; i < c->count; i++)
        if (c->state[i] == ovs_chain_queued) queued = i;
    if (queued < 0) return 0;
    for (int i = 0; i < c->count; i++)
        if (c->state[i] == ovs_chain_shown) c->state[i] = ovs_chain_free;
    c->state[queued] = ovs_chain_shown;
    return 1;
}

void ovs_chain_released(ovs_chain *c, int slot) {
    if (slot >= 0 && slot < c->count && c->state[slot] == ovs_chain_queued) c->state[slot] = ovs_chain_free;
}

void ovs_chain_forget(ovs_chain *c) {
    for (int i = 0; i < c->count; i++)
        if (c->state[i] == ovs_chain_queued || c->state[i] == ovs_chain_shown) c->state[i] = ovs_chain_free;
}

int ovs_chain_count(const ovs_chain *c, ovs_chain_state state) {
    int n = 0;
    for (int i = 0; i < c->count; i++) n += c->state[i] == state;
    return n;
}

int ovs_chain_is_stalled(const ovs_chain *c) {
    return c->ops->stall_ms > 0 && ovs_chain_count(c, ovs_chain_queued) > 0 && now_ms(c) - c->queued_ms > c->ops->stall_ms;
}

int ovs_chain_wait(ovs_chain *c, int (*until)(void *arg), void *arg, int timeout_ms) {
    double deadline = now_ms(c) + timeout_ms;
    for (;;) {
        if (c->ops->pump(c->owner, 0) < 0) return -1;
        int said = until(arg);
        if (said > 0) return 1;
        if (said < 0) return 0;
        double left = deadline - now_ms(c);
        if (left <= 0) {
            if (ovs_chain_is_stalled(c)) return ovs_chain_stalled;
            return c->ops->silent && c->ops->silent(c->owner) < 0 ? -1 : 0;
        }
        if (c->ops->pump(c->owner, (int)left + 1) < 0) return -1;
    }
}
