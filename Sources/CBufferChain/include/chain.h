#ifndef OVERSCROLL_CHAIN_H
#define OVERSCROLL_CHAIN_H
// A small chain of buffers shown one after another, as the console's DRM dumb buffers
// (CDRM's dumb.c) and Wayland's wl_shm buffers (CWayland's wlshm.c) are: each buffer is
// free, drawn (handed out), queued (committed: a flip not yet done, or held by the
// compositor) or on the screen. What differs, how a buffer is made and dropped and how
// the other side's answers are read, the owner fills into a table of functions (as SDL's
// render backends fill in SDL_Renderer's), and the state machine, the bounded waits and
// the loss they see are one code here.
//
// Nothing here allocates, blocks but through `pump`, or knows of DRM or Wayland.

enum { ovs_chain_most = 3 };

typedef enum {
    ovs_chain_free = 0,     // nobody reads it: may be drawn
    ovs_chain_drawn,        // handed out by ovs_chain_acquire, not yet committed
    ovs_chain_queued,       // committed: the flip not yet done, or the compositor holds it
    ovs_chain_shown,        // on the screen (DRM: until the next flip is done)
} ovs_chain_state;

// What ovs_chain_acquire and ovs_chain_wait return when they have no buffer or answer.
enum {
    ovs_chain_lost = -1,        // `pump` said the other side is gone
    ovs_chain_timed_out = -2,   // none came free within the time given
    ovs_chain_unmade = -3,      // `make` could not make a new one
    ovs_chain_stalled = -4,     // a buffer queued longer than `stall_ms` was never shown
};

typedef struct ovs_chain_ops {
    // Reads what arrived from the other side (a flip's event, a release), waiting at
    // most `timeout_ms` (0: not at all) for something to. 0, or -1 once it is gone.
    int (*pump)(void *owner, int timeout_ms);
    // Makes buffer `slot` as `want` (the owner's request, passed through) asks. 1, or 0.
    int (*make)(void *owner, int slot, const void *want);
    // Whether buffer `slot`, made before, is what `want` asks for.
    int (*fits)(void *owner, int slot, const void *want);
    // Frees buffer `slot` (the owner's memory, framebuffer, wl_buffer ...).
    void (*drop)(void *owner, int slot);
    // Asked when a wait ran out with nothing heard: whether the other side is still there
    // (a DRM device that went away may just fall silent). -1: gone. NULL: never gone so.
    int (*silent)(void *owner);
    // The monotonic clock the waits are bounded by, in milliseconds. NULL:
    // CLOCK_MONOTONIC (tests give a clock of their own that `pump` moves on).
    double (*now_ms)(void *owner);
    // The other side takes one flip at a time (DRM): a buffer queued while another is
    // puts that one back to free, as its event will be taken for the new one's.
    int one_queued;
    // A buffer queued this long (ms) and not yet shown is a flip that will never be: a
    // wait that runs out then says `ovs_chain_stalled`, not "not yet" for ever (DRM: a
    // driver that lost a flip). 0: never so (a compositor keeps a hidden window's
    // buffers as long as it likes).
    int stall_ms;
} ovs_chain_ops;

typedef struct {
    const ovs_chain_ops *ops;
    void *owner;
    unsigned char state[ovs_chain_most];    // ovs_chain_state
    unsigned char fresh[ovs_chain_most];    // never drawn, or its pixels no longer known
    int count;                              // buffers made
    int current;                            // the drawn one, -1 when none
    double queued_ms;                       // when the last one was queued (`now_ms`)
} ovs_chain;

void ovs_chain_init(ovs_chain *c, const ovs_chain_ops *ops, void *owner);

// Drops every buffer when one is not what `want` asks for (another size): 1 if it did.
int ovs_chain_reshape(ovs_chain *c, const void *want);
// Drops every buffer (`ops->drop` for each).
void ovs_chain_clear(ovs_chain *c);
// Fewer buffers from now on: drops those past the first `most`, 1; or 0, dropping none,
// when one of them is queued or on the screen (then the owner clears them all).
int ovs_chain_trim(ovs_chain *c, int most);

// A buffer to draw into: the first free one, else a new one while there are fewer than
// `most` (at most ovs_chain_most), else the first to come free within `timeout_ms`;
// `most` 1, with one buffer made: that one, on the screen, once its flip is done (drawn
// where it is shown: the owner knows the screen may tear).
// Its slot (now drawn and `current`), or ovs_chain_lost, _stalled, _timed_out (after
// `silent` was asked) or _unmade (`make` left errno as it failed). A buffer drawn before
// and never committed is free again.
int ovs_chain_acquire(ovs_chain *c, const void *want, int most, int timeout_ms);
// The drawn buffer taken back, to be committed or because the owner could not ready it:
// free, none current. Its slot, or -1 when none was drawn.
int ovs_chain_cancel(ovs_chain *c);
// Whether `slot`'s pixels are new or unknown (1) since it was last handed out; says
// so once.
int ovs_chain_take_fresh(ovs_chain *c, int slot);
// `slot`'s pixels are no longer what the owner drew (a refused flip); every buffer's (the
// screen was someone else's meanwhile) when `slot` is -1.
void ovs_chain_spoil(ovs_chain *c, int slot);

// Buffer `slot` committed (taken back with ovs_chain_cancel): queued.
void ovs_chain_queue(ovs_chain *c, int slot);
// Buffer `slot` put on the screen at once (DRM's blocking mode set): the one shown
// before and any queued are free.
void ovs_chain_show(ovs_chain *c, int slot);
// The queued buffer reached the screen (DRM's flip event): the one shown before is free.
// 0 when none was queued (an event from before a VT switch): nothing changes.
int ovs_chain_flipped(ovs_chain *c);
// The other side is done reading `slot` (wl_buffer.release): free, if it was queued.
void ovs_chain_released(ovs_chain *c, int slot);
// Nothing is on the screen or queued any more (another program had the screen): all free.
void ovs_chain_forget(ovs_chain *c);

// How many buffers are in `state`.
int ovs_chain_count(const ovs_chain *c, ovs_chain_state state);
// Whether a buffer has been queued for longer than `ops->stall_ms` (never where it is 0).
int ovs_chain_is_stalled(const ovs_chain *c);

// Waits at most `timeout_ms` until `until(arg)` says: 1 done, 0 not yet, -1 never (stop
// now). Returns 1 when done, 0 when it stopped or the time ran out (and `silent` said
// the other side is still there), -1 once it is gone, ovs_chain_stalled when the time
// ran out on a buffer queued longer than `stall_ms`.
int ovs_chain_wait(ovs_chain *c, int (*until)(void *arg), void *arg, int timeout_ms);

// CLOCK_MONOTONIC in milliseconds.
double ovs_chain_monotonic_ms(void);

#endif
