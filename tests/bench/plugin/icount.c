/* icount.c - QEMU TCG plugin: exact count of guest instructions from rr_bench_start to rr_bench_stop. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "qemu-plugin-min.h"

/*
 * Use: qemu-system-... -plugin icount.so,start=ADDR,stop=ADDR,out=FILE
 * ADDR is hexadecimal as nm prints it ("0x" optional). Bit 0 (the ARM Thumb
 * bit) is ignored, and a sign-extended 32-bit address (mips nm prints
 * ffffffff80100178) is read as its low 32 bits.
 *
 * Every translated instruction gets an inline "executed += 1" that runs each
 * time it executes; the first instruction of each marker also gets a
 * callback. A region costs the growth of `executed` between the start and
 * stop callbacks: all instructions from the first of rr_bench_start up to,
 * not including, the first of rr_bench_stop. A start inside an open region
 * is ignored. At exit FILE (or, without out=, QEMU's log) gets
 * "insns=<sum over completed regions> regions=<completed regions>", then (with
 * out=) one line "region <i> <insns>" per completed region, in order.
 * One vCPU is assumed, as on every board here.
 *
 * Profile mode (make profile, tests/bench/profile.sh): with keep=FILE and
 * pcs=FILE the plugin also counts, per instruction address, the
 * instructions executed inside the regions whose numbers (0 = the first
 * start/stop pair) FILE lists, one per line, and writes "pc count" lines
 * (hex, decimal) to the pcs= file at exit. These counts are per translated
 * block: a block that starts while a kept region is open counts all its
 * instructions once. That attributes every instruction of the region except
 * those of the block holding the first instruction of rr_bench_start, and
 * adds those of rr_bench_stop's first block: a few instructions a region,
 * which profile.sh shows under those two names. The exact totals stay the
 * inline counts above.
 */

/* Part of QEMU's plugin API (qemu-plugin.h) that only profile mode uses. */
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
                                          qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags,
                                          void *userdata);

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static uint64_t start_pc;
static uint64_t stop_pc;
static const char *out_path;

static uint64_t executed;       /* every guest instruction so far */
static uint64_t region_begin;   /* `executed` at the open region's start */
static uint64_t total;          /* instructions in completed regions */
static uint64_t regions;        /* completed start/stop pairs */
static int inside;

/* Each completed region's own count, in order (the bench tables pair them
 * with the labels the program prints). Regions past the cap still count in
 * the total. */
#define MAX_REGIONS 65536
static uint64_t region_insns[MAX_REGIONS];

/* Profile mode: one translated block, its instruction addresses and how
 * often it started inside a kept region. Blocks are never freed (QEMU may
 * translate one address again; profile.sh adds the lines up). */
typedef struct block {
    struct block *next;
    uint64_t runs;
    size_t n;
    uint64_t pc[];
} block;

static const char *pcs_path;
static block *blocks;
static unsigned char *keep;     /* keep[i]: profile region i */
static uint64_t nkeep;          /* regions the keep file can name */
static int profiling;           /* inside a kept region */

static uint64_t normalize(uint64_t addr)
{
    if ((addr >> 31) == 0x1ffffffffu) {   /* sign-extended 32-bit address */
        addr &= 0xffffffffu;
    }
    return addr & ~(uint64_t)1;
}

static void on_start(unsigned int vcpu_index, void *userdata)
{
    (void)vcpu_index;
    (void)userdata;
    if (!inside) {
        inside = 1;
        region_begin = executed;
        profiling = regions < nkeep && keep[regions];   /* this region's number */
    }
}

static void on_stop(unsigned int vcpu_index, void *userdata)
{
    (void)vcpu_index;
    (void)userdata;
    if (inside) {
        inside = 0;
        profiling = 0;
        total += executed - region_begin;
        if (regions < MAX_REGIONS) {
            region_insns[regions] = executed - region_begin;
        }
        regions++;
    }
}

static void on_block(unsigned int vcpu_index, void *userdata)
{
    (void)vcpu_index;
    if (profiling) {
        ((block *)userdata)->runs++;
    }
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    size_t i;
    block *b = NULL;

    (void)id;
    if (pcs_path != NULL) {
        b = calloc(1, sizeof *b + n * sizeof b->pc[0]);
        if (b != NULL) {
            b->n = n;
            b->next = blocks;
            blocks = b;
            qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, QEMU_PLUGIN_CB_NO_REGS, b);
        }
    }
    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = normalize(qemu_plugin_insn_vaddr(insn));

        if (b != NULL) {
            b->pc[i] = pc;
        }

        if (pc == start_pc) {
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_start,
                                                   QEMU_PLUGIN_CB_NO_REGS, NULL);
        } else if (pc == stop_pc) {
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_stop,
                                                   QEMU_PLUGIN_CB_NO_REGS, NULL);
        }
        qemu_plugin_register_vcpu_insn_exec_inline(insn,
                                                   QEMU_PLUGIN_INLINE_ADD_U64,
                                                   &executed, 1);
    }
}

/* Profile mode: the per-address counts into the pcs= file. */
static void write_pcs(void)
{
    FILE *f = fopen(pcs_path, "w");
    const block *b;
    size_t i;

    if (f == NULL) {
        qemu_plugin_outs("icount: cannot write the pcs= file\n");
        return;
    }
    for (b = blocks; b != NULL; b = b->next) {
        for (i = 0; b->runs && i < b->n; i++) {
            fprintf(f, "%" PRIx64 " %" PRIu64 "\n", b->pc[i], b->runs);
        }
    }
    if (fclose(f) != 0) {
        qemu_plugin_outs("icount: cannot write the pcs= file\n");
    }
}

/* Profile mode: the keep file, region numbers one per line. */
static int read_keep(const char *path)
{
    FILE *f = fopen(path, "r");
    unsigned long long r;

    if (f == NULL) {
        return -1;
    }
    while (fscanf(f, "%llu", &r) == 1) {
        if (r >= nkeep) {
            uint64_t grow = r + 1 > 2 * nkeep ? r + 1 : 2 * nkeep;
            unsigned char *k = realloc(keep, grow);
            if (k == NULL) {
                fclose(f);
                return -1;
            }
            memset(k + nkeep, 0, grow - nkeep);
            keep = k;
            nkeep = grow;
        }
        keep[r] = 1;
    }
    fclose(f);
    return 0;
}

static void write_result(qemu_plugin_id_t id, void *userdata)
{
    char line[80];
    FILE *f;

    (void)id;
    (void)userdata;
    if (pcs_path != NULL) {
        write_pcs();
    }
    snprintf(line, sizeof line, "insns=%" PRIu64 " regions=%" PRIu64 "\n",
             total, regions);
    if (out_path == NULL) {
        qemu_plugin_outs(line);
        return;
    }
    f = fopen(out_path, "w");
    if (f == NULL || fputs(line, f) == EOF) {
        qemu_plugin_outs("icount: cannot write the out= file\n");
        if (f != NULL) {
            fclose(f);
        }
        return;
    }
    for (uint64_t i = 0; i < regions && i < MAX_REGIONS; i++) {
        fprintf(f, "region %" PRIu64 " %" PRIu64 "\n", i, region_insns[i]);
    }
    if (fclose(f) != 0) {
        qemu_plugin_outs("icount: cannot write the out= file\n");
    }
}

/* Parse "key=hex" into *addr; returns 1 if arg has that key. */
static int parse_addr(const char *arg, const char *key, uint64_t *addr,
                      int *ok)
{
    size_t len = strlen(key);
    char *end;

    if (strncmp(arg, key, len) != 0 || arg[len] != '=') {
        return 0;
    }
    *addr = normalize(strtoull(arg + len + 1, &end, 16));
    *ok = arg[len + 1] != '\0' && *end == '\0';
    return 1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv)
{
    int have_start = 0;
    int have_stop = 0;
    int i;

    (void)info;
    for (i = 0; i < argc; i++) {
        if (parse_addr(argv[i], "start", &start_pc, &have_start) ||
            parse_addr(argv[i], "stop", &stop_pc, &have_stop)) {
            continue;
        }
        if (strncmp(argv[i], "out=", 4) == 0 && argv[i][4] != '\0') {
            out_path = argv[i] + 4;
            continue;
        }
        if (strncmp(argv[i], "pcs=", 4) == 0 && argv[i][4] != '\0') {
            pcs_path = argv[i] + 4;
            continue;
        }
        if (strncmp(argv[i], "keep=", 5) == 0) {
            if (read_keep(argv[i] + 5) != 0) {
                qemu_plugin_outs("icount: cannot read the keep= file\n");
                return -1;
            }
            continue;
        }
        qemu_plugin_outs("icount: unknown argument (want start=, stop=, out=, keep=, pcs=)\n");
        return -1;
    }
    if (!have_start || !have_stop || start_pc == stop_pc) {
        qemu_plugin_outs("icount: need distinct start=ADDR and stop=ADDR (hex)\n");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, write_result, NULL);
    return 0;
}
