/* plat_malta.c - QEMU malta console (16550 UART), UHI semihosting exit and fatal-exception report. */
#include <stdint.h>
#include "../rr_plat.h"

/*
 * The malta boot stub maps the southbridge ISA I/O space at physical
 * 0x18000000, so the PC-style COM1 16550 at I/O 0x3F8 is reached through
 * uncached KSEG1 at 0xB80003F8, one byte register per address on both
 * byte orders. Exit uses the MIPS UHI semihosting call (QEMU -semihosting).
 */
#define UART ((volatile uint8_t *)0xB80003F8u)

enum { UART_THR = 0, UART_IER = 1, UART_FCR = 2, UART_LCR = 3, UART_LSR = 5 };
enum { LSR_THR_EMPTY = 0x20, LSR_TX_IDLE = 0x40 };
enum { LCR_8N1 = 0x03, FCR_FIFO_ON_RESET = 0x07 };
enum { UHI_EXIT = 1 };          /* UHI operation number, passed in $25 */
enum { EXIT_FAULT = 1 };        /* exit status after a CPU exception */

void malta_trap(void) __attribute__((noreturn));

void plat_init(void)
{
    UART[UART_IER] = 0;                 /* polled, no interrupts */
    UART[UART_LCR] = LCR_8N1;           /* also clears DLAB */
    UART[UART_FCR] = FCR_FIFO_ON_RESET;
}

void plat_putc(char c)
{
    while (!(UART[UART_LSR] & LSR_THR_EMPTY)) {
    }
    UART[UART_THR] = (uint8_t)c;
}

void plat_exit(int code)
{
    register int32_t op __asm__("$25") = UHI_EXIT;
    register int32_t status __asm__("$4") = code;

    while (!(UART[UART_LSR] & LSR_TX_IDLE)) {  /* let the last byte out */
    }
    __asm__ __volatile__("sdbbp 1" : : "r"(op), "r"(status) : "memory");
    for (;;) {
    }
}

/* Entered from start.S on any CPU exception: report it and exit. */
void malta_trap(void)
{
    uint32_t cause, epc, badvaddr;

    __asm__ __volatile__("mfc0 %0, $13" : "=r"(cause));
    __asm__ __volatile__("mfc0 %0, $14" : "=r"(epc));
    __asm__ __volatile__("mfc0 %0, $8" : "=r"(badvaddr));
    plat_printf("\nmalta: CPU exception %u (cause 0x%08x) at pc 0x%08x, "
                "address 0x%08x\n", (unsigned)(cause >> 2) & 31u,
                (unsigned)cause, (unsigned)epc, (unsigned)badvaddr);
    plat_exit(EXIT_FAULT);
}
