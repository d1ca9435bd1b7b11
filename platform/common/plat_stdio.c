/* plat_stdio.c - console and exit on the C library's stdio (host, and the ARM boards via semihosting). */
#include <stdio.h>
#include <stdlib.h>
#include "../rr_plat.h"

/*
 * On the ARM boards the libc's stdout is a semihosting handle (picolibc on
 * mps2-an385, newlib rdimon on versatilepb) and exit() ends QEMU with the
 * program's status; on the host both are the ordinary glibc ones.
 */

void plat_init(void)
{
}

void plat_putc(char c)
{
    putchar((unsigned char)c);
}

void plat_exit(int code)
{
    fflush(stdout);
    exit(code);
}
