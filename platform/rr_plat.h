/* rr_plat.h - board support API: console, formatted output, exit, bench markers. */
#ifndef RR_PLAT_H
#define RR_PLAT_H

#include <stdarg.h>

/*
 * The same API on every board (host, mps2-an385, versatilepb, malta-be,
 * malta-le). Output goes to the board console, which the board's run
 * command (BOARD_RUN in platform/<board>/board.mk) delivers on stdout.
 * Bytes are written as given: '\n' is never turned into "\r\n".
 */

/* Initialise the console. Call first in main(), before any other plat_*. */
void plat_init(void);

/* Write one byte to the console. */
void plat_putc(char c);

/* Write a NUL-terminated string; no newline is added. */
void plat_puts(const char *s);

/*
 * Formatted output, the same bytes on every board (no libc printf, no float).
 * Conversions: %d %i %u %x %X %c %s %p %%.
 * Flags: '-' (left-justify), '0' (zero-pad numbers; ignored with '-').
 * Width: decimal digits. Length: l, ll (and z for size_t).
 * %p prints "0x" and lower-case hex; %s of NULL prints "(null)".
 * An unknown conversion is printed as written.
 * Note: long is 64 bits on the host and 32 bits on the targets, so print
 * portable values with %lld / %llu or 32-bit values with %ld.
 */
void plat_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void plat_vprintf(const char *fmt, va_list ap);

/* Flush the console and end the program; the shell running QEMU sees
   exit status code & 0xff. */
void plat_exit(int code) __attribute__((noreturn));

/*
 * Empty marker functions for the instruction-count plugin
 * (tests/bench/plugin/icount.c): it counts every instruction executed from
 * the entry of rr_bench_start up to the entry of rr_bench_stop. An empty
 * region costs 2 instructions on ARM, 4 on MIPS (call/return + delay slots).
 */
__attribute__((noinline, noipa)) void rr_bench_start(void);
__attribute__((noinline, noipa)) void rr_bench_stop(void);

#endif /* RR_PLAT_H */
