#include "turn.h"

// Four pixels in one 16-byte vector: SSE2 on x86-64, NEON on arm64, through clang's
// vector extensions so one source serves both.
typedef uint32_t v4 __attribute__((ext_vector_type(4)));
typedef uint32_t v4_unaligned __attribute__((ext_vector_type(4), aligned(4)));

// A whole band (16 strip rows) written in 4x4 blocks turned in registers: `streaming`,
// with non-temporal stores, each memory row's 64 bytes one whole cache line; otherwise
// ordinary (unaligned) vector stores. Inlined twice, each with its kind of store.
static inline __attribute__((always_inline)) void band(uint32_t *line, ptrdiff_t step, const uint32_t *source,
                                                       ptrdiff_t pitch, int rows, int streaming) {
    int x = 0;
    for (; x + 4 <= rows; x += 4) {
        // out[g][i]: memory row x + i's pixels 4g..4g+3.
        v4 out[4][4];
        for (int g = 0; g < 4; g++) {
            const uint32_t *s = source + 4 * g * pitch + x;
            v4 r0 = *(const v4_unaligned *)s, r1 = *(const v4_unaligned *)(s + pitch);
            v4 r2 = *(const v4_unaligned *)(s + 2 * pitch), r3 = *(const v4_unaligned *)(s + 3 * pitch);
            v4 lo01 = __builtin_shufflevector(r0, r1, 0, 4, 1, 5), lo23 = __builtin_shufflevector(r2, r3, 0, 4, 1, 5);
            v4 hi01 = __builtin_shufflevector(r0, r1, 2, 6, 3, 7), hi23 = __builtin_shufflevector(r2, r3, 2, 6, 3, 7);
            out[g][0] = __builtin_shufflevector(lo01, lo23, 0, 1, 4, 5);
            out[g][1] = __builtin_shufflevector(lo01, lo23, 2, 3, 6, 7);
            out[g][2] = __builtin_shufflevector(hi01, hi23, 0, 1, 4, 5);
            out[g][3] = __builtin_shufflevector(hi01, hi23, 2, 3, 6, 7);
        }
        // A line at a time, whole: a write-combining buffer is freed as soon as it is full.
        for (int i = 0; i < 4; i++) {
            uint32_t *d = line + (x + i) * step;
            for (int g = 0; g < 4; g++) {
                if (streaming) __builtin_nontemporal_store(out[g][i], (v4 *)(d + 4 * g));
                else *(v4_unaligned *)(d + 4 * g) = out[g][i];
            }
        }
    }
    for (; x < rows; x++) {
        uint32_t *d = line + x * step;
        const uint32_t *s = source + x;
        for (int g = 0; g < 16; g += 4) {
            v4 v = { s[g * pitch], s[(g + 1) * pitch], s[(g + 2) * pitch], s[(g + 3) * pitch] };
            if (streaming) __builtin_nontemporal_store(v, (v4 *)(d + g));
            else *(v4_unaligned *)(d + g) = v;
        }
    }
}

void ovs_turn_rows(uint32_t *line, ptrdiff_t step, const uint32_t *source, ptrdiff_t pitch, int slots, int rows) {
    if (slots == 16) {
        // Whole cache lines (the memory and its pitch on 64 bytes, as a dumb buffer's
        // usually are) are streamed: ordinary stores read each line in first, a miss each
        // where the buffer is colder than the cache, and on write-combined memory, as dumb
        // buffers often are, a line written in pieces is a bus transaction a piece. A
        // stream into part of a line is worse: there, ordinary stores.
        if (((uintptr_t)line & 63) == 0 && (step & 15) == 0) band(line, step, source, pitch, rows, 1);
        else band(line, step, source, pitch, rows, 0);
        return;
    }
    // Part of a band (a rectangle's first or last rows, the memory's last columns).
    for (int x = 0; x < rows; x++) {
        uint32_t *d = line + x * step;
        const uint32_t *s = source + x;
        for (int k = 0; k < slots; k++) d[k] = s[k * pitch];
    }
}

void ovs_fill_band(uint32_t *line, ptrdiff_t step, const uint32_t *pattern, int slots, int rows) {
    if (slots == 16) {
        v4 p0 = *(const v4_unaligned *)pattern, p1 = *(const v4_unaligned *)(pattern + 4);
        v4 p2 = *(const v4_unaligned *)(pattern + 8), p3 = *(const v4_unaligned *)(pattern + 12);
        // Whole cache lines streamed, as ovs_turn_rows' are; otherwise ordinary stores.
        if (((uintptr_t)line & 63) == 0 && (step & 15) == 0) {
            for (int x = 0; x < rows; x++) {
                v4 *d = (v4 *)(line + x * step);
                __builtin_nontemporal_store(p0, d);
                __builtin_nontemporal_store(p1, d + 1);
                __builtin_nontemporal_store(p2, d + 2);
                __builtin_nontemporal_store(p3, d + 3);
            }
        } else {
            for (int x = 0; x < rows; x++) {
                v4_unaligned *d = (v4_unaligned *)(line + x * step);
                d[0] = p0;
                d[1] = p1;
                d[2] = p2;
                d[3] = p3;
            }
        }
        return;
    }
    for (int x = 0; x < rows; x++) {
        uint32_t *d = line + x * step;
        for (int k = 0; k < slots; k++) d[k] = pattern[k];
    }
}

void ovs_turn_fence(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_sfence();
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

void ovs_copy_reversed(uint32_t *last, const uint32_t *source, int count) {
    // Four at a time, turned in a register (the compiler does not see the loop backwards).
    int i = 0;
    for (; i + 4 <= count; i += 4) {
        v4 v = *(const v4_unaligned *)(source + i);
        *(v4_unaligned *)(last - i - 3) = __builtin_shufflevector(v, v, 3, 2, 1, 0);
    }
    for (; i < count; i++) last[-i] = source[i];
}
