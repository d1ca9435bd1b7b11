/* libc_min.c - the few string.h functions GCC may call on a freestanding MIPS board (no C library). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * GCC emits calls to memcpy, memmove, memset and memcmp even with
 * -ffreestanding (struct copies, zeroing, loops it recognises), so a
 * freestanding board must define them. Word loops are used when both
 * pointers are 4-byte aligned. NO_LIBCALL stops GCC from turning these very
 * loops back into calls to themselves.
 */
#define NO_LIBCALL __attribute__((optimize("no-tree-loop-distribute-patterns")))

typedef uint32_t __attribute__((may_alias)) word_t;

static int aligned4(const void *a, const void *b)
{
    return (((uintptr_t)a | (uintptr_t)b) & 3u) == 0;
}

NO_LIBCALL void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;

    if (aligned4(d, s)) {
        for (; n >= 4; n -= 4, d += 4, s += 4) {
            *(word_t *)(void *)d = *(const word_t *)(const void *)s;
        }
    }
    for (; n > 0; n--) {
        *d++ = *s++;
    }
    return dst;
}

NO_LIBCALL void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;

    if ((uintptr_t)d - (uintptr_t)s >= n) {     /* no harmful overlap */
        return memcpy(dst, src, n);
    }
    while (n > 0) {                             /* copy backwards */
        n--;
        d[n] = s[n];
    }
    return dst;
}

NO_LIBCALL void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    unsigned char b = (unsigned char)c;

    if (((uintptr_t)d & 3u) == 0) {
        word_t w = b * 0x01010101u;
        for (; n >= 4; n -= 4, d += 4) {
            *(word_t *)(void *)d = w;
        }
    }
    for (; n > 0; n--) {
        *d++ = b;
    }
    return dst;
}

NO_LIBCALL int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a;
    const unsigned char *q = b;

    for (; n > 0; n--, p++, q++) {
        if (*p != *q) {
            return *p < *q ? -1 : 1;
        }
    }
    return 0;
}

NO_LIBCALL size_t strlen(const char *s)
{
    size_t n = 0;

    while (s[n]) {
        n++;
    }
    return n;
}

NO_LIBCALL int strcmp(const char *a, const char *b)
{
    const unsigned char *p = (const unsigned char *)a;
    const unsigned char *q = (const unsigned char *)b;

    while (*p && *p == *q) {
        p++;
        q++;
    }
    return *p < *q ? -1 : *p > *q;
}
