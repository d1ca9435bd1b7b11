/* string.h - the subset of <string.h> that platform/malta/libc_min.c provides on the freestanding MIPS boards. */
#ifndef RR_MALTA_STRING_H
#define RR_MALTA_STRING_H

#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);

#endif /* RR_MALTA_STRING_H */
