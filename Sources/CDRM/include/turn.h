#ifndef OVS_TURN_H
#define OVS_TURN_H
#include <stddef.h>
#include <stdint.h>

// Writing a turned screen into a dumb buffer (WindowCanvas's turn). At 90° or 270°
// (TurnStrip.swift) rows gathered unturned in a strip are written across the buffer's
// rows, a piece of cache line each; at 180°, a row is written backwards.
// C for what Swift cannot say: non-temporal stores (a full line written without being read
// first, as rep stosb/movsb write an unturned row) and vector shuffles on every target.

// Writes `rows` memory rows, the first at `line` and each `step` pixels after the one
// before, `slots` (1 to 16) pixels each: pixel k of memory row i is source[k * pitch + i]
// (strip row k, one pixel further along it per memory row).
void ovs_turn_rows(uint32_t *line, ptrdiff_t step, const uint32_t *source, ptrdiff_t pitch, int slots, int rows);

// Writes `rows` memory rows, the first at `line` and each `step` pixels after the one
// before, the same `slots` (1 to 16) pixels `pattern` each: a band of a turned screen where
// each of its rows is one colour (a list's background around its text), no transposition.
void ovs_fill_band(uint32_t *line, ptrdiff_t step, const uint32_t *pattern, int slots, int rows);

// Copies `count` pixels from `source` backwards, the first to `last` and each next one
// pixel before it: a row of a screen turned 180°.
void ovs_copy_reversed(uint32_t *last, const uint32_t *source, int count);

// Orders the non-temporal stores ovs_turn_rows made before what follows (the buffer handed
// to the display): they are weakly ordered.
void ovs_turn_fence(void);

#endif
