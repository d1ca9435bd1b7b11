/* selftest.c - board self-test: formatted output, 64-bit arithmetic, 5 MB of const data, bench markers, exit 3. */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include "rr_plat.h"
#include "selftest.h"

/*
 * Output must be byte-identical on every board (platform/selftest.expected);
 * platform/selftest.sh also checks the exit status (3) and the instruction
 * counts of the two bench regions at the end.
 */

enum { BULK_WORDS = 3 * 1024 * 1024 / 4 };  /* 3 MB, with the blob 5 MB */

/* A second large const array, in the program object rather than the
   library, so the image carries more than 4 MB of read-only data. */
static const uint32_t bulk[BULK_WORDS] = {
    [0] = 0x11111111u,
    [BULK_WORDS - 1] = 0x22222222u,
};

/* plat_vprintf without the format attribute, to print specs that the
   compiler would rightly warn about: unknown and unfinished ones. */
static void print_unchecked(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    plat_vprintf(fmt, ap);
    va_end(ap);
}

static void print_formats(void)
{
    plat_printf("int: %d %i %u %d %d\n", -42, 7, 3000000000u, INT_MIN, INT_MAX);
    plat_printf("width: [%5d] [%-5d] [%05d] [%3d] [%-3u]\n", -42, -42, -42,
                123456, 7u);
    plat_printf("hex: %x %X %08x [%-8x] %x\n", 0xbeefu, 0xbeefu, 0x1fu, 0xabu,
                0u);
    plat_printf("long: %ld %lu %lx %li\n", -2147483647L, 4000000000UL,
                0xdeadbeefUL, 123456789L);
    plat_printf("llong: %lld %lld %llu %llx %llX %lli\n", LLONG_MIN, LLONG_MAX,
                ULLONG_MAX, 0x0123456789abcdefULL, 0xfedcba9876543210ULL,
                -1LL);
    plat_printf("llwidth: [%22lld] [%-22lld] [%020llu] [%018llx]\n",
                LLONG_MIN, -5LL, 12345ULL, 0xabcdefULL);
    plat_printf("pad: [%020lld] [%-20lld] [%5x] [%05X] [%1d] [%08d]\n", -7LL,
                -7LL, 0xffu, 0xabcu, -1234, INT_MIN);
    plat_printf("char: %c [%3c] [%-3c]\n", 'A', 'b', 'c');
    plat_printf("str: %s [%8s] [%-8s] [%2s]\n", "plain", "right", "left",
                "long");
    plat_printf("misc: %% %p %zu\n", (void *)0, sizeof(uint32_t));
    print_unchecked("odd: [%-05d] [%s] [%q] [%5%] [%-3l] [%", -42,
                    (const char *)0, 1);
    plat_putc('\n');
    plat_puts("puts: no newline added");
    plat_putc('\n');
}

static void print_arithmetic(void)
{
    static volatile int64_t a = -123456789012345LL;
    static volatile int64_t b = 987654321;
    static volatile uint64_t c = 0xfedcba9876543210ULL;

    /* int64_t is long on the host: cast for the portable %ll forms */
    plat_printf("div64: %lld %lld\n", (long long)selftest_div64(a, b),
                (long long)selftest_mod64(a, b));
    plat_printf("div64: %lld %lld\n", (long long)selftest_div64(a, -b),
                (long long)selftest_mod64(-a, b));
    plat_printf("udiv64: %llu %llu\n",
                (unsigned long long)selftest_udiv64(c, 7),
                (unsigned long long)selftest_udiv64(c, 0x100000001ULL));
    plat_printf("mul64: %llx %llx\n",
                (unsigned long long)selftest_mul64(c, c),
                (unsigned long long)selftest_mul64((uint64_t)a, (uint64_t)b));
    plat_printf("inline64: %lld %llx\n", (long long)(a / b),
                (unsigned long long)(c / 10 * 3));
}

/* Sum of word * (index + 1) mod 2^64: sees every word, and where it is. */
static uint64_t checksum(const uint32_t *w, uint32_t n)
{
    uint64_t sum = 0;
    uint32_t i;

    for (i = 0; i < n; i++) {
        sum += (uint64_t)w[i] * (i + 1u);
    }
    return sum;
}

static void print_const_data(void)
{
    plat_printf("blob: %u bytes, checksum %016llx\n",
                (unsigned)sizeof selftest_blob,
                (unsigned long long)checksum(selftest_blob, SELFTEST_BLOB_WORDS));
    plat_printf("bulk: %u bytes, checksum %016llx\n", (unsigned)sizeof bulk,
                (unsigned long long)checksum(bulk, BULK_WORDS));
}

/* Region 1 is empty; region 2 is a 1000-iteration loop. The QEMU boards
   check the icount plugin's total for both (platform/selftest.sh). */
static void bench_regions(void)
{
    unsigned i;

    rr_bench_start();
    rr_bench_stop();
    rr_bench_start();
    for (i = 0; i < 1000; i++) {
        __asm__ __volatile__("");
    }
    rr_bench_stop();
}

int main(void)
{
    plat_init();
    print_formats();
    print_arithmetic();
    print_const_data();
    bench_regions();
    plat_puts("selftest: done, exit 3\n");
    return 3;
}
