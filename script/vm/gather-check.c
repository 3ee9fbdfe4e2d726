/* The guest CPU's AVX2 gather, checked before the kiosk is: script/vm-test builds this
 * (no C library: -nostdlib -static, 2 KB) into the image and drive.py runs it at boot.
 *
 * Why: QEMU 7.2's software emulation (TCG, Debian 12's qemu-system-x86) reads the wrong
 * indices for VPGATHERDD when the index register is ymm4 (number 4, which in an ordinary
 * SIB byte means "no index"): the lanes get other indices (0x80000000 seen) and the load
 * faults or returns other memory. Mesa's llvmpipe (LLVM 15) fetches vertices
 * with AVX2 gathers wherever the CPU offers AVX2, so the KMSDRM kiosk's GLES2 path died
 * with SIGSEGV inside llvmpipe's generated code (the core dumps: SDL_RenderReadPixels in
 * DrawProbe, at start): twice in a row after a stop, or at every start. Real CPUs gather
 * right.
 *
 * Exit 0: both gathers (index ymm4, and ymm5 for comparison) read what they should.
 * Exit 77: the CPU offers no AVX2 (nothing to get wrong; llvmpipe uses no gathers).
 * Exit 1, or death by SIGSEGV: the emulated CPU gathers wrongly. */
typedef unsigned int u32;

static long sys3(long n, long a, long b, long c) {
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return r;
}
static void put(const char *s) { long n = 0; while (s[n]) n++; sys3(1, 1, (long)s, n); }
static void hex(u32 v) {
    char b[12] = " 0x00000000";
    for (int i = 0; i < 8; i++) b[10 - i] = "0123456789abcdef"[(v >> (4 * i)) & 15];
    put(b);
}
static void cpuid(u32 leaf, u32 sub, u32 r[4]) {
    __asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}
/* AVX2 usable: CPUID.7.0:EBX bit 5, and the OS saves the ymm state (OSXSAVE, XCR0 bits 1-2). */
static int has_avx2(void) {
    u32 r[4];
    cpuid(0, 0, r);
    if (r[0] < 7) return 0;
    cpuid(1, 0, r);
    if (!(r[2] & (1u << 27)) || !(r[2] & (1u << 28))) return 0;
    u32 lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return 0;
    cpuid(7, 0, r);
    return (r[1] >> 5) & 1;
}

static u32 data[64] __attribute__((aligned(32)));
/* Byte offsets, as llvmpipe's vertex fetch uses them (a 20-byte vertex). */
static u32 offsets[8] __attribute__((aligned(32))) = {0, 20, 40, 60, 80, 100, 100, 100};
static u32 got4[8] __attribute__((aligned(32))), got5[8] __attribute__((aligned(32)));

static int check(const char *name, const u32 *got) {
    int ok = 1;
    put(name);
    for (int i = 0; i < 8; i++) {
        hex(got[i]);
        if (got[i] != data[offsets[i] / 4]) ok = 0;
    }
    put(ok ? ": right\n" : ": WRONG\n");
    return ok;
}

void _start(void) {
    if (!has_avx2()) {
        put("gather-check: the CPU offers no AVX2: no gathers to check\n");
        sys3(60, 77, 0, 0);
    }
    for (int i = 0; i < 64; i++) data[i] = 0x1000 + i;
    /* The control first: a fault in the second gather leaves this line printed. */
    __asm__ volatile(
        "vmovdqa (%[offsets]), %%ymm5\n"
        "vpcmpeqd %%ymm6, %%ymm6, %%ymm6\n"
        "vpxor %%ymm8, %%ymm8, %%ymm8\n"
        "vpgatherdd %%ymm6, (%[base],%%ymm5,1), %%ymm8\n"
        "vmovdqa %%ymm8, (%[out])\n"
        : : [offsets] "r"(offsets), [base] "r"(data), [out] "r"(got5)
        : "xmm5", "xmm6", "xmm8", "memory");
    int ok5 = check("gather-check: index ymm5:", got5);
    __asm__ volatile(
        "vmovdqa (%[offsets]), %%ymm4\n"
        "vpcmpeqd %%ymm6, %%ymm6, %%ymm6\n"
        "vpxor %%ymm8, %%ymm8, %%ymm8\n"
        "vpgatherdd %%ymm6, (%[base],%%ymm4,1), %%ymm8\n"
        "vmovdqa %%ymm8, (%[out])\n"
        : : [offsets] "r"(offsets), [base] "r"(data), [out] "r"(got4)
        : "xmm4", "xmm6", "xmm8", "memory");
    int ok4 = check("gather-check: index ymm4:", got4);
    sys3(60, ok4 && ok5 ? 0 : 1, 0, 0);
}
