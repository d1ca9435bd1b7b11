/* qemu-plugin-min.h - the few declarations of QEMU's TCG plugin API (version 1, QEMU 7.2) that icount.c uses. */
#ifndef QEMU_PLUGIN_MIN_H
#define QEMU_PLUGIN_MIN_H

/*
 * Debian ships no qemu-plugin.h. These declarations follow the version 1
 * API that QEMU 7.2 exports (functions named qemu_plugin_*, resolved from the
 * QEMU binary when the plugin is loaded). Only what icount.c needs is here.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
#define QEMU_PLUGIN_VERSION 1

typedef uint64_t qemu_plugin_id_t;

/* Information QEMU passes to qemu_plugin_install (valid during that call). */
typedef struct qemu_info_t {
    const char *target_name;
    struct {
        int min;
        int cur;
    } version;
    bool system_emulation;
    union {
        struct {
            int smp_vcpus;
            int max_vcpus;
        } system;
    };
} qemu_info_t;

struct qemu_plugin_tb;          /* opaque: a block being translated */
struct qemu_plugin_insn;        /* opaque: one instruction of that block */

enum qemu_plugin_cb_flags {
    QEMU_PLUGIN_CB_NO_REGS,
    QEMU_PLUGIN_CB_R_REGS,
    QEMU_PLUGIN_CB_RW_REGS
};

enum qemu_plugin_op {
    QEMU_PLUGIN_INLINE_ADD_U64
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
                                            void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
                                               struct qemu_plugin_tb *tb);

/* Symbols the plugin itself exports; QEMU checks the version. */
extern QEMU_PLUGIN_EXPORT int qemu_plugin_version;
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv);

/* Called for every block QEMU translates. */
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           qemu_plugin_vcpu_tb_trans_cb_t cb);
/* Inside a translation callback: walk the block's instructions. */
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
                                                 size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
/* Run cb, or add imm to *ptr, each time that instruction executes. */
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
                                            qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags,
                                            void *userdata);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
                                                enum qemu_plugin_op op,
                                                void *ptr, uint64_t imm);
/* Called once when QEMU exits. */
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
                                    qemu_plugin_udata_cb_t cb, void *userdata);
/* Print a message on QEMU's log (stderr by default). */
void qemu_plugin_outs(const char *string);

#endif /* QEMU_PLUGIN_MIN_H */
