/* iprof.c - QEMU TCG plugin: where the measured instructions go. Counts the
 * guest instructions executed inside chosen rr_bench_start .. rr_bench_stop
 * regions, per instruction address, for tests/bench/profile.sh to sum per
 * function (make profile).
 *
 * Use: qemu-system-... -plugin iprof.so,start=ADDR,stop=ADDR,keep=FILE,out=FILE
 * start/stop as for icount.c (hex as nm prints it, Thumb bit ignored). keep=
 * names a file of region numbers (0 = the first start/stop pair), one per
 * line: only those regions count. At exit out= gets one line "pc count" per
 * instruction address that ran inside them (hex, decimal).
 *
 * Counting is per translated block: a block that starts while a kept region
 * is open counts all its instructions once. That attributes every
 * instruction of the region except those of the block that holds the first
 * instruction of rr_bench_start, and adds those of rr_bench_stop's first
 * block: a few instructions per region, which profile.sh shows under those
 * two names. The exact per-region totals are icount.c's (make bench).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "qemu-plugin-min.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* Part of QEMU's plugin API (qemu-plugin.h) that icount.c does not need. */
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
                                          qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags,
                                          void *userdata);

/* One translated block: its instruction addresses and how often it ran
 * inside a kept region. Blocks are never freed (QEMU may translate one
 * address again; profile.sh adds the lines up). */
typedef struct block {
    struct block *next;
    uint64_t runs;
    size_t n;
    uint64_t pc[];
} block;

static block *blocks;
static uint64_t start_pc, stop_pc;
static const char *out_path;
static unsigned char *keep;     /* keep[i]: count region i */
static uint64_t nkeep;          /* regions the keep file can name */
static uint64_t region;         /* regions started so far */
static int inside, counting;

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
        counting = region < nkeep && keep[region];
        region++;
    }
}

static void on_stop(unsigned int vcpu_index, void *userdata)
{
    (void)vcpu_index;
    (void)userdata;
    inside = 0;
    counting = 0;
}

static void on_block(unsigned int vcpu_index, void *userdata)
{
    (void)vcpu_index;
    if (counting) {
        ((block *)userdata)->runs++;
    }
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    block *b = calloc(1, sizeof *b + n * sizeof b->pc[0]);
    size_t i;

    (void)id;
    if (b == NULL) {
        return;
    }
    b->n = n;
    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        b->pc[i] = normalize(qemu_plugin_insn_vaddr(insn));
        if (b->pc[i] == start_pc) {
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_start,
                                                   QEMU_PLUGIN_CB_NO_REGS, NULL);
        } else if (b->pc[i] == stop_pc) {
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_stop,
                                                   QEMU_PLUGIN_CB_NO_REGS, NULL);
        }
    }
    b->next = blocks;
    blocks = b;
    qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, QEMU_PLUGIN_CB_NO_REGS, b);
}

static void write_result(qemu_plugin_id_t id, void *userdata)
{
    FILE *f = fopen(out_path, "w");
    const block *b;
    size_t i;

    (void)id;
    (void)userdata;
    if (f == NULL) {
        qemu_plugin_outs("iprof: cannot write the out= file\n");
        return;
    }
    for (b = blocks; b != NULL; b = b->next) {
        for (i = 0; b->runs && i < b->n; i++) {
            fprintf(f, "%" PRIx64 " %" PRIu64 "\n", b->pc[i], b->runs);
        }
    }
    if (fclose(f) != 0) {
        qemu_plugin_outs("iprof: cannot write the out= file\n");
    }
}

/* The keep file: region numbers, one per line. */
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

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv)
{
    int i;

    (void)info;
    for (i = 0; i < argc; i++) {
        if (strncmp(argv[i], "start=", 6) == 0) {
            start_pc = normalize(strtoull(argv[i] + 6, NULL, 16));
        } else if (strncmp(argv[i], "stop=", 5) == 0) {
            stop_pc = normalize(strtoull(argv[i] + 5, NULL, 16));
        } else if (strncmp(argv[i], "out=", 4) == 0 && argv[i][4] != '\0') {
            out_path = argv[i] + 4;
        } else if (strncmp(argv[i], "keep=", 5) == 0) {
            if (read_keep(argv[i] + 5) != 0) {
                qemu_plugin_outs("iprof: cannot read the keep= file\n");
                return -1;
            }
        } else {
            qemu_plugin_outs("iprof: unknown argument (want start=, stop=, keep=, out=)\n");
            return -1;
        }
    }
    if (start_pc == 0 || stop_pc == 0 || start_pc == stop_pc || out_path == NULL) {
        qemu_plugin_outs("iprof: need start=ADDR, stop=ADDR (distinct) and out=FILE\n");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, write_result, NULL);
    return 0;
}
