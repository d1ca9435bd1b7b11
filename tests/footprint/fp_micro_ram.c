/* fp_micro_ram.c - the deepest stack the whole micro:bit demo reaches,
 * measured by stack painting on the microbit board: every free word between
 * the end of .bss and the current stack pointer is filled with a pattern,
 * tests/target/t_micro.c runs (its own output is printed as usual), and the
 * lowest word no longer holding the pattern gives the stack peak below the
 * caller. Built and run by tests/footprint/stack.py; it prints the line
 * "fp_micro_ram peak_stack=N" last. With picolibc's memory layout only. */
#define main t_micro_main
#include "../target/t_micro.c"
#undef main

#define FP_PATTERN 0x5ac3e1f7u

extern char __bss_end[];

static inline __attribute__((always_inline)) uintptr_t fp_sp(void)
{
    uintptr_t sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    return sp;
}

static __attribute__((noinline)) void fp_paint(void)
{
    volatile uint32_t *p = (volatile uint32_t *)(((uintptr_t)__bss_end + 3) & ~(uintptr_t)3);
    uintptr_t end = fp_sp() - 8;
    while ((uintptr_t)p < end)
        *p++ = FP_PATTERN;
}

int main(void)
{
    uintptr_t top = fp_sp();
    const volatile uint32_t *p = (const volatile uint32_t *)(((uintptr_t)__bss_end + 3) &
                                                             ~(uintptr_t)3);
    int rc;
    fp_paint();
    rc = t_micro_main();
    while ((uintptr_t)p < top && *p == FP_PATTERN)
        p++;
    plat_printf("fp_micro_ram peak_stack=%lu free_above_bss=%lu status=%d\n",
                (unsigned long)(top - (uintptr_t)p),
                (unsigned long)((uintptr_t)p - (uintptr_t)__bss_end), rc);
    return rc;
}
