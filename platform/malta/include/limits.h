/* limits.h - lets GCC's own <limits.h> stand alone on the freestanding MIPS boards (no C library behind it). */
#ifndef RR_MALTA_LIMITS_H
#define RR_MALTA_LIMITS_H

/* GCC's limits.h for a Linux target chains to the C library's limits.h
   unless _LIBC_LIMITS_H_ is defined; there is none here. */
#define _LIBC_LIMITS_H_
#include_next <limits.h>

#endif /* RR_MALTA_LIMITS_H */
