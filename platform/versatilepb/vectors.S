/* vectors.S - ARM926 exception vectors for versatilepb: a CPU exception is reported on the console and ends the program with status 1. */

/*
 * newlib's rdimon crt0 installs no vectors and RAM at address 0 holds zeros,
 * so an undefined instruction, an abort or a call through a NULL function
 * pointer would otherwise spin until BOARD_RUN's timeout. A constructor (run
 * by crt0 before main) writes eight "ldr pc, [pc, #24]" at 0x00-0x1c and the
 * handler addresses at 0x20-0x3c. The semihosting SVC never reaches its
 * vector: QEMU serves it first. IRQ and FIQ stay masked.
 */
    .syntax unified
    .arm

    .section .text.plat_vectors, "ax", %progbits
    .align  2
install_vectors:
    mov     r0, #0
    ldr     r1, =0xe59ff018         @ ldr pc, [pc, #24]
    mov     r3, #8
1:  str     r1, [r0], #4
    subs    r3, r3, #1
    bne     1b
    adr     r2, handlers            @ r0 = 0x20 now
    mov     r3, #8
2:  ldr     r1, [r2], #4
    str     r1, [r0], #4
    subs    r3, r3, #1
    bne     2b
    bx      lr

handlers:   @ reset, undef, svc, prefetch abort, data abort, -, irq, fiq
    .word   trap_other, trap_undef, trap_other, trap_pabort
    .word   trap_dabort, trap_other, trap_other, trap_other

@ r1 = what happened, r2 = address of the faulting instruction
trap_undef:
    sub     r2, lr, #4
    ldr     r1, =name_undef
    b       trap_report
trap_pabort:
    sub     r2, lr, #4
    ldr     r1, =name_pabort
    b       trap_report
trap_dabort:
    sub     r2, lr, #8
    ldr     r1, =name_dabort
    b       trap_report
trap_other:
    mov     r2, lr
    ldr     r1, =name_other
trap_report:
    ldr     sp, =trap_stack_top     @ the mode's own stack is not set up
    mrc     p15, 0, r3, c6, c0, 0   @ fault address register
    ldr     r0, =trap_format
    bl      plat_printf
    mov     r0, #1
    bl      plat_exit
    .ltorg

    .section .rodata.plat_vectors, "a", %progbits
trap_format:
    .asciz  "\nversatilepb: CPU exception: %s at pc 0x%08x (fault address 0x%08x)\n"
name_undef:
    .asciz  "undefined instruction"
name_pabort:
    .asciz  "prefetch abort"
name_dabort:
    .asciz  "data abort"
name_other:
    .asciz  "reset/irq/fiq vector (jump to address 0?)"

    .section .bss.plat_vectors, "aw", %nobits
    .align  3
    .space  1024
trap_stack_top:

    .section .init_array, "aw", %init_array
    .align  2
    .word   install_vectors
