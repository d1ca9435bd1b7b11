/* start.S - MIPS32 entry for QEMU malta: stack, .bss, exception vectors, main, plat_exit. */

/*
 * QEMU's malta boot stub jumps to the ELF entry in kernel mode with the
 * image already at its link address in KSEG0 (load = run address), so no
 * section is copied. Registers are named by number: $2 v0, $4 a0,
 * $8-$11 t0-t3, $29 sp. The link script (linker/malta.ld) provides
 * __bss_start, __bss_end (both word-aligned) and __stack_top.
 */

#define CP0_STATUS $12

    .set    noreorder
    .section .text.start, "ax", @progbits
    .globl  _start
    .type   _start, @function
_start:
    la      $29, __stack_top

    /* zero .bss */
    la      $8, __bss_start
    la      $9, __bss_end
    beq     $8, $9, 2f
    nop
1:  sw      $0, 0($8)
    addiu   $8, $8, 4
    bne     $8, $9, 1b
    nop
2:
    /* Any exception is fatal: with Status.BEV = 0 the CPU vectors to
       0x80000000 (TLB refill, e.g. a NULL access) or 0x80000180 (all
       others); copy a two-word "j trap_entry" stub to both. The j target
       stays valid because both addresses share the image's 256 MB region.
       QEMU needs no cache maintenance for code written this way. */
    la      $8, trap_stub
    lw      $10, 0($8)
    lw      $11, 4($8)
    lui     $9, 0x8000
    sw      $10, 0($9)
    sw      $11, 4($9)
    sw      $10, 0x180($9)
    sw      $11, 0x184($9)

    /* Status = 0: kernel mode, interrupts off, BEV/ERL/EXL clear, so
       KUSEG is mapped and a stray low address traps instead of reading
       RAM. Two ssnops cover the CP0 hazard on MIPS32 release 1. */
    mtc0    $0, CP0_STATUS
    ssnop
    ssnop

    jal     main
    nop
    jal     plat_exit
    move    $4, $2              /* delay slot: exit code = main's result */
    .size   _start, . - _start

trap_stub:
    j       trap_entry
    nop

/* Fresh stack (the program is ending anyway), then report and exit. */
trap_entry:
    la      $29, __stack_top
    jal     malta_trap
    nop
