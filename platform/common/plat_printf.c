/* plat_printf.c - board-independent console formatter on top of plat_putc (no libc, no float). */
#include <stddef.h>
#include <stdint.h>
#include "../rr_plat.h"

/*
 * One conversion spec is parsed into flags, width and length, the value is
 * turned into a prefix ("-" or "0x") and a digit string, and put_field()
 * pads it. Every board runs this same code, so output is byte-identical.
 */

enum { F_LEFT = 1, F_ZERO = 2 };        /* '-' and '0' flags */
enum { L_INT, L_LONG, L_LLONG, L_SIZE };  /* length modifiers */
enum { WIDTH_MAX = 1000 };              /* wider specs are clamped */
enum { DIGITS_MAX = 24 };               /* 2^64-1 has 20 decimal digits */

void plat_puts(const char *s)
{
    while (*s) {
        plat_putc(*s++);
    }
}

static int str_len(const char *s)
{
    int n = 0;
    while (s[n]) {
        n++;
    }
    return n;
}

static void put_repeat(char c, int n)
{
    while (n-- > 0) {
        plat_putc(c);
    }
}

/* Print pre then body[0..len), padded to width as flags say. */
static void put_field(const char *pre, const char *body, int len, int width,
                      unsigned flags)
{
    int pad = width - str_len(pre) - len;
    int i;

    if (!(flags & (F_LEFT | F_ZERO))) {
        put_repeat(' ', pad);
    }
    plat_puts(pre);
    if ((flags & (F_LEFT | F_ZERO)) == F_ZERO) {
        put_repeat('0', pad);
    }
    for (i = 0; i < len; i++) {
        plat_putc(body[i]);
    }
    if (flags & F_LEFT) {
        put_repeat(' ', pad);
    }
}

/* Write the digits of v in base 10 or 16 so they end at end; returns the
   first digit. 64-bit division (a libgcc helper on the targets) is used only
   while v does not fit in 32 bits. */
static char *format_unsigned(char *end, unsigned long long v, unsigned base,
                             int upper)
{
    const char *digit = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char *p = end;
    uint32_t w;

    while (v > 0xffffffffu) {
        *--p = digit[v % base];
        v /= base;
    }
    w = (uint32_t)v;
    do {
        *--p = digit[w % base];
        w /= base;
    } while (w != 0);
    return p;
}

static long long arg_signed(va_list *ap, int len)
{
    switch (len) {
    case L_LONG:  return va_arg(*ap, long);
    case L_LLONG: return va_arg(*ap, long long);
    case L_SIZE:  return va_arg(*ap, ptrdiff_t);
    default:      return va_arg(*ap, int);
    }
}

static unsigned long long arg_unsigned(va_list *ap, int len)
{
    switch (len) {
    case L_LONG:  return va_arg(*ap, unsigned long);
    case L_LLONG: return va_arg(*ap, unsigned long long);
    case L_SIZE:  return va_arg(*ap, size_t);
    default:      return va_arg(*ap, unsigned int);
    }
}

/* Print one conversion; returns 0 if conv is not a known conversion. */
static int put_conversion(char conv, va_list *ap, int len, int width,
                          unsigned flags)
{
    char buf[DIGITS_MAX];
    char *end = buf + sizeof buf;
    const char *pre = "";
    const char *s;
    unsigned long long u;
    long long v;

    switch (conv) {
    case 'd':
    case 'i':
        v = arg_signed(ap, len);
        /* magnitude computed in unsigned arithmetic: safe for LLONG_MIN */
        u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
        pre = v < 0 ? "-" : "";
        s = format_unsigned(end, u, 10, 0);
        break;
    case 'u':
        s = format_unsigned(end, arg_unsigned(ap, len), 10, 0);
        break;
    case 'x':
    case 'X':
        s = format_unsigned(end, arg_unsigned(ap, len), 16, conv == 'X');
        break;
    case 'p':
        pre = "0x";
        s = format_unsigned(end, (uintptr_t)va_arg(*ap, void *), 16, 0);
        break;
    case 'c':
        buf[0] = (char)va_arg(*ap, int);
        put_field("", buf, 1, width, flags & ~(unsigned)F_ZERO);
        return 1;
    case 's':
        s = va_arg(*ap, const char *);
        if (s == NULL) {
            s = "(null)";
        }
        put_field("", s, str_len(s), width, flags & ~(unsigned)F_ZERO);
        return 1;
    case '%':
        plat_putc('%');
        return 1;
    default:
        return 0;
    }
    put_field(pre, s, (int)(end - s), width, flags);
    return 1;
}

void plat_vprintf(const char *fmt, va_list ap)
{
    va_list args;

    va_copy(args, ap);
    while (*fmt) {
        const char *spec = fmt;
        unsigned flags = 0;
        int width = 0;
        int len = L_INT;

        if (*fmt != '%') {
            plat_putc(*fmt++);
            continue;
        }
        fmt++;
        for (;; fmt++) {
            if (*fmt == '-') {
                flags |= F_LEFT;
            } else if (*fmt == '0') {
                flags |= F_ZERO;
            } else {
                break;
            }
        }
        for (; *fmt >= '0' && *fmt <= '9'; fmt++) {
            if (width < WIDTH_MAX) {
                width = width * 10 + (*fmt - '0');
            }
        }
        if (*fmt == 'l') {
            fmt++;
            len = L_LONG;
            if (*fmt == 'l') {
                fmt++;
                len = L_LLONG;
            }
        } else if (*fmt == 'z') {
            fmt++;
            len = L_SIZE;
        }
        if (*fmt == '\0' || !put_conversion(*fmt, &args, len, width, flags)) {
            /* unknown or unfinished spec: print it as written */
            while (spec < fmt) {
                plat_putc(*spec++);
            }
            if (*fmt == '\0') {
                break;
            }
            plat_putc(*fmt);
        }
        fmt++;
    }
    va_end(args);
}

void plat_printf(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    plat_vprintf(fmt, ap);
    va_end(ap);
}
