/* rrbake.c - the command-line front end: bake, info, verify, dump, sample.
 * Each source format lives in its own module (rrb_format.h); this file only
 * parses arguments, walks folders, and handles blobs (info/verify of .rrb). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rrb_blob.h"
#include "rrb_boards.h"
#include "rrb_schema.h"
#include "rrb_cli.h"
#include "rrb_files.h"
#include "rrb_format.h"
#include "rrb_util.h"

static const char usage_main[] =
    "usage: rrbake COMMAND [options] ...\n"
    "\n"
    "Bake game room files into romroom blobs, and inspect files and blobs.\n"
    "\n"
    "commands:\n"
    "  bake IN... [-o OUT]    bake files or folders into .rrb blobs\n"
    "  info FILE... [--json]  summary of source files or blobs (folders: every room)\n"
    "  verify FILE...         full consistency check (exit status 0 = ok)\n"
    "  dump FILE --json       whole content of a source file as JSON\n"
    "  query BLOB CMD ARGS    run a runtime query (locate, height, ray, trace, pose...)\n"
    "  preview FILE -o OUT    OBJ (+MTL) geometry or SVG plan of a room\n"
    "  convert FILE -o OUT    RMF -> Valve-220 .map, RMesh/ROO -> OBJ, EMI -> glTF\n"
    "  sample FORMAT|all -o DIR  write the project's own sample files\n"
    "  formats                list the supported source formats\n"
    "  boards                 list the boards of --target, with their blob budgets\n"
    "  schema --markdown      the blob format of every room format (docs/blob-format.md)\n"
    "  --version              versions of rrbake, the blob format and each schema\n"
    "\n"
    "Run 'rrbake COMMAND --help' for the options of a command.\n";

static const char usage_bake[] =
    "usage: rrbake bake IN... [-o OUT] [options]\n"
    "\n"
    "IN is a room file or a folder (baked recursively; output mirrors the tree).\n"
    "With one input file, -o names the output file (default: IN with .rrb);\n"
    "with folders or several inputs, -o names the output folder.\n"
    "\n"
    "options:\n"
    "  -o OUT                 output file or folder\n"
    "  --endian little|big    byte order of the blob (default little)\n"
    "  --target BOARD         the board the blob is for: its byte order, and a\n"
    "                         warning when the blob passes its budget: host,\n"
    "                         mps2-an385, versatilepb, malta-le, microbit (little-\n"
    "                         endian), malta-be (big-endian)\n"
    "  --strict               treat warnings (e.g. ROO checksum) as errors\n"
    "  --room-scale           RMesh: apply the game's RoomScale 8/2048\n"
    "  --collision-only       leave render data out of the blob\n"
    "  --skip-hidden          RMF: leave out solids of hidden visgroups\n"
    "  --contents RULES       RMF: brush contents by entity class, tried before\n"
    "                         the default table, e.g. \"func_lava=water,trigger_*=trigger\"\n"
    "                         (contents: solid, water, trigger, nonsolid)\n"
    "  --c-array NAME         write C source (const array NAME) instead of binary\n"
    "  --exclude GLOB         folders: leave out files whose path below the folder\n"
    "                         or whose name matches GLOB (may be repeated)\n"
    "  -j N                   bake N files at a time (default: number of CPUs)\n"
    "  -q, --quiet            no warnings, no progress\n"
    "\n"
    "Every blob written is opened again with rr_open before it is saved.\n"
    "In a folder, files that are no room source (README.txt, blobs) and EMI parts\n"
    "that a manifest or a .sklb takes in are skipped, and the summary counts them.\n"
    "Two inputs that would be written to the same output are refused before any\n"
    "bake starts. A batch continues past bad files, shows progress (files, bytes,\n"
    "current file) and ends with a summary listing each failure with its reason.\n"
    "Exit status: 0 all baked, 1 some input failed, 2 usage error.\n";

static const char usage_info[] =
    "usage: rrbake info FILE... [--json]\n"
    "\n"
    "FILE may be a folder: every room source and blob below it (other files are\n"
    "skipped and counted). With several files, --json prints a JSON array.\n"
    "Print a summary of a source room file (any supported format) or of a .rrb\n"
    "blob (header, sections, sizes, arena, depth, and for a little-endian blob\n"
    "the room itself as the runtime sees it: counts, bounds, animations...).\n"
    "--json prints one JSON object (blobs: the room summary under \"room\").\n";

static const char usage_verify[] =
    "usage: rrbake verify FILE...\n"
    "\n"
    "FILE may be a folder: every room source and blob below it. Every line starts\n"
    "with the file's name; several files end with a count of ok and failed.\n"
    "Source file: full consistency check of the format (ROO checksum, RMF planes,\n"
    "EMI hierarchy...). Blob, of either byte order: the same validation rr_open\n"
    "does on the board (a big-endian blob is swapped to host order through its\n"
    "schema first), naming the section, record, field and byte offset of the\n"
    "first problem. Exit status 0 when the file is sound.\n";

static const char usage_dump[] =
    "usage: rrbake dump FILE --json\n"
    "\n"
    "Print the whole content of a source room file as JSON (an EMI figure\n"
    "manifest: each file it names; a blob, of either byte order: its header and\n"
    "every record of every section, field by field as the schema names them).\n";

static const char usage_schema[] =
    "usage: rrbake schema --markdown [-o FILE]\n"
    "\n"
    "Print the blob format (header, section table, every section and field of\n"
    "every room format) as Markdown, from the same schema tables the loader's\n"
    "checks and the baker's byte swapping come from. docs/blob-format.md is this.\n";

static const char usage_sample[] =
    "usage: rrbake sample FORMAT|all -o DIR\n"
    "\n"
    "Write the project's own small sample files (made by its writers, not copied\n"
    "from any game) into DIR. FORMAT is one of: rmesh rmf roo emi.\n";

static const char usage_synth[] =
    "usage: rrbake synth BYTES -o OUT [--endian little|big]\n"
    "\n"
    "Write a synthetic RAW blob of about BYTES bytes (tests, benchmarks).\n";

static const char usage_boards[] =
    "usage: rrbake boards\n"
    "\n"
    "List the boards --target knows: byte order, the largest blob a program may\n"
    "link there (bytes; 0: no limit), and what the board is.\n";

static const char usage_formats[] =
    "usage: rrbake formats\n"
    "\n"
    "List the source formats this build reads, with a one-line description.\n";

static int is_dir(const char *p);

static int has_help(int argc, char **argv)
{
    int i;
    for (i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return 1;
    return 0;
}

static int is_blob(const uint8_t *d, size_t n)
{
    return n >= 4 && d[0] == RR_MAGIC0 && d[1] == RR_MAGIC1 && d[2] == RR_MAGIC2 &&
           d[3] == RR_MAGIC3;
}

static uint32_t rd32(const uint8_t *p, int be)
{
    return be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
              : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static const char *format_name(uint32_t f)
{
    static const char *const names[] = {"raw", "rmesh", "rmf", "roo", "emi"};
    return f < 5 ? names[f] : "unknown";
}

/* The format's own summary, read through the runtime (a big-endian blob
 * swapped to host order through its schema). */
static void blob_room_info(const char *path, int json, FILE *out)
{
    rrb_cli_room r;
    char err[RRB_ERR_MAX];
    if (rrb_cli_open(path, &r, err, sizeof err)) {
        if (json)
            fprintf(out, "null");
        else
            fprintf(out, "  room summary unavailable: %s\n", err);
        return;
    }
    rrb_cli_room_info(&r.room, out, json);
    rrb_cli_close(&r);
}

/* Name of a section type in a blob of format fmt. */
static const char *section_name(uint32_t fmt, uint32_t type)
{
    const rrb_section *s = rrb_schema_section(rrb_schema_of(fmt), type);
    return s ? s->name : "unknown";
}

/* Blob info, for either byte order (the header and table read in host order). */
static int blob_info(const uint8_t *d, size_t n, const char *path, int json, FILE *out)
{
    int be;
    uint32_t i;
    uint8_t *c = rrb_blob_host_copy(d, n, &be);
    const rr_blob_header *h = (const rr_blob_header *)(const void *)c;
    const rr_section_entry *t;
    if (!c) {
        fprintf(stderr, "%s:0x0: expected a 48-byte blob header, found %zu bytes\n", path, n);
        return 1;
    }
    t = (const rr_section_entry *)(const void *)(c + RR_HEADER_BYTES);
    if (h->nsections > RR_MAX_SECTIONS ||
        RR_HEADER_BYTES + (size_t)h->nsections * RR_SECTION_ENTRY_BYTES > n) {
        fprintf(stderr, "%s:0x%x: expected at most %u sections inside the file, found %u\n", path,
                (unsigned)offsetof(rr_blob_header, nsections), RR_MAX_SECTIONS, h->nsections);
        free(c);
        return 1;
    }
    if (json) {
        fprintf(out, "{\"format\":\"blob\",\"room_format\":\"%s\",\"endian\":\"%s\",\"version\":%u,"
               "\"coord_frac\":%u,\"size\":%u,\"checksum\":%u,\"arena\":%u,\"max_depth\":%u,"
               "\"sections\":[",
               format_name(h->format), be ? "big" : "little", h->version, h->fixed & 0xff,
               h->total_size, be ? rd32(d + offsetof(rr_blob_header, checksum), 1) : h->checksum,
               h->arena, h->max_depth);
        for (i = 0; i < h->nsections; i++)
            fprintf(out, "%s{\"name\":\"%s\",\"type\":%u,\"offset\":%u,\"size\":%u,\"count\":%u}",
                   i ? "," : "", section_name(h->format, t[i].type), t[i].type, t[i].offset,
                   t[i].size, t[i].count);
        fprintf(out, "],\"room\":");
        blob_room_info(path, 1, out);
        fprintf(out, "}\n");
        free(c);
        return 0;
    }
    fprintf(out, "%s: romroom blob v%u, %s room, %s-endian\n", path, h->version,
           format_name(h->format), be ? "big" : "little");
    fprintf(out, "  size %u bytes, crc32 0x%08x, coordinates with %u fractional bits\n", h->total_size,
           be ? rd32(d + offsetof(rr_blob_header, checksum), 1) : h->checksum, h->fixed & 0xff);
    fprintf(out, "  arena %u bytes, max tree depth %u, %u sections:\n", h->arena, h->max_depth,
           h->nsections);
    for (i = 0; i < h->nsections; i++)
        fprintf(out, "    %-12s type 0x%04x  offset %8u  size %8u  count %8u\n",
               section_name(h->format, t[i].type), t[i].type, t[i].offset, t[i].size, t[i].count);
    blob_room_info(path, 0, out);
    free(c);
    return 0;
}

/* Open a blob of either byte order with the real loader (a big-endian one
 * swapped to host order through its schema first); prints the diagnosis,
 * naming section, record and field. */
static int blob_open_check(const uint8_t *d, size_t n, const char *path, FILE *verbose)
{
    rr_room room;
    rr_diag diag;
    rr_err e;
    int32_t need;
    int be;
    uint8_t *c = rrb_blob_host_copy(d, n, &be);
    void *arena;
    char text[256];
    memset(&diag, 0, sizeof diag);
    if (!c) {
        fprintf(stderr, "%s:0x0: blob rejected: expected a %u-byte header, found %zu bytes "
                        "(the file looks truncated)\n", path, RR_HEADER_BYTES, n);
        return 1;
    }
    need = rr_arena_size(c, (uint32_t)n);
    if (need < 0) {
        e = rr_open_diag(c, (uint32_t)n, NULL, 0, &room, &diag);
    } else {
        arena = rrb_xmalloc((size_t)need + 4);
        e = rr_open_diag(c, (uint32_t)n, arena, (uint32_t)need, &room, &diag);
        free(arena);
    }
    if (e) {
        if (e == RR_ERR_CHECKSUM) {
            uint32_t stored = rd32(d + offsetof(rr_blob_header, checksum), be);
            uint32_t crc = rr_crc32(0, d + RR_CHECKSUM_FROM, (uint32_t)(n - RR_CHECKSUM_FROM));
            snprintf(text, sizeof text, "header.checksum at 0x%x: stored 0x%08x, computed 0x%08x "
                     "(%s: the blob was changed after it was baked)",
                     (unsigned)offsetof(rr_blob_header, checksum), stored, crc, rr_strerror(e));
        } else {
            rrb_diag_text(c, n, e, &diag, text, sizeof text);
        }
        fprintf(stderr, "%s:0x%x: blob rejected: %s\n", path, diag.offset, text);
        free(c);
        return 1;
    }
    if (verbose)
        fprintf(verbose, "%s: ok (%s room, %s-endian, %u bytes, arena %u, depth %u)\n", path,
               format_name(room.format), be ? "big" : "little", room.size,
               rr_arena_size(c, (uint32_t)n), room.max_depth);
    free(c);
    return 0;
}

static int blob_verify(const uint8_t *d, size_t n, const char *path, FILE *out)
{
    return blob_open_check(d, n, path, out);
}

/* Every record of a blob, by field name. */
static int blob_dump(const uint8_t *d, size_t n, const char *path, FILE *out)
{
    int be;
    uint8_t *c = rrb_blob_host_copy(d, n, &be);
    if (!c) {
        fprintf(stderr, "%s:0x0: expected a 48-byte blob header, found %zu bytes\n", path, n);
        return 1;
    }
    rrb_dump_blob_json(c, n, out);
    free(c);
    return 0;
}

#define RRB_MAX_EXCLUDE 64

/* info (0), verify (1) or dump (2) of one file; its output goes to out. */
static int text_one(const char *path, int which, int json, FILE *out)
{
    int rc;
    uint8_t *d;
    size_t n;
    char err[RRB_ERR_MAX];
    const rrb_format *f;
    rrb_text_fn fn;
    if (rrb_load_file(path, &d, &n, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (is_blob(d, n)) {
        rc = which == 1 ? blob_verify(d, n, path, out)
             : which == 2 ? blob_dump(d, n, path, out)
                          : blob_info(d, n, path, json, out);
        free(d);
        return rc;
    }
    f = rrb_detect(d, n, path);
    if (!f) {
        fprintf(stderr, "%s:0x0: expected a room file of a supported format (rrbake formats), "
                        "found unrecognised data%s\n", path,
                rrb_looks_like_text(d, n) ? " (the file is text)" : "");
        free(d);
        return 1;
    }
    if (rrb_cli_is_manifest(f, d, n, path)) {
        rc = rrb_cli_manifest(d, n, path, f, which, which == 2 || json, out, stderr);
        free(d);
        return rc ? 1 : 0;
    }
    fn = which == 1 ? f->verify : which == 2 ? f->dump_json : json ? f->info_json : f->info;
    if (!fn) {
        fprintf(stderr, "%s: %s: this command is not supported yet for this format\n", path,
                f->name);
        free(d);
        return 1;
    }
    err[0] = 0;
    rc = fn(d, n, path, out, err, sizeof err);
    if (rc && err[0])
        fprintf(stderr, "%s\n", err);
    free(d);
    return rc ? 1 : 0;
}

/* verify: every line names the file ("PATH: ok ..."), whatever the format's
 * checker prints. */
static int verify_one(const char *path)
{
    char *buf = NULL, *line, *next;
    size_t len = 0, pl = strlen(path);
    FILE *mem = open_memstream(&buf, &len);
    int rc;
    if (!mem)
        return text_one(path, 1, 0, stdout);
    rc = text_one(path, 1, 0, mem);
    fclose(mem);
    for (line = buf; line && *line; line = next) {
        size_t word = strcspn(line, " "), gap;
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        gap = word + strspn(line + word, " ");
        if (!strncmp(line, path, pl) && line[pl] == ':')
            printf("%s\n", line);   /* names the file already */
        else if (!strncmp(line + gap, path, pl) && line[gap + pl] == ':')
            printf("%s: %.*s%s\n", path, (int)word, line, line + gap + pl + 1);   /* "ok PATH: x" */
        else if (line[gap] && gap > word)   /* one space after the status word */
            printf("%s: %.*s %s\n", path, (int)word, line, line + gap);
        else
            printf("%s: %s\n", path, line);
    }
    free(buf);
    return rc;
}

/* info, verify, dump: info and verify take several files and folders (every
 * room source and blob below a folder); dump takes one file. */
static int cmd_text(int argc, char **argv, const char *usage, int which)
{
    rrb_inputs in = {0};
    int json = 0, i, nargs = 0, failed = 0;
    size_t k;
    char skipped[256];
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (argv[i][0] == '-' || (which == 2 && nargs)) {
            fprintf(stderr, "rrbake: unexpected argument '%s'\n%s", argv[i], usage);
            rrb_inputs_free(&in);
            return 2;
        } else {
            if (which == 2 && is_dir(argv[i])) {
                fprintf(stderr, "%s: is a folder: dump takes one file\n", argv[i]);
                return 1;
            }
            rrb_inputs_add(&in, argv[i]);
            nargs++;
        }
    }
    if (!nargs) {
        fprintf(stderr, "%s", usage);
        return 2;
    }
    rrb_inputs_filter(&in, NULL, 0, 1, 0);
    rrb_inputs_skipped(&in, skipped, sizeof skipped);
    if (json && which == 0 && (in.n != 1 || in.v[0].rel))
        printf("[");
    for (k = 0; k < in.n; k++) {
        if (json && which == 0 && k)
            printf(",");
        fflush(stdout);
        failed += which == 1 ? verify_one(in.v[k].path) : text_one(in.v[k].path, which, json,
                                                                     stdout);
    }
    if (json && which == 0 && (in.n != 1 || in.v[0].rel))
        printf("]\n");
    if (which == 1 && (in.n != 1 || *skipped))
        printf("%zu file%s: %zu ok, %d failed%s%s\n", in.n, in.n == 1 ? "" : "s",
               in.n - (size_t)failed, failed, *skipped ? "; " : "", skipped);
    else if (*skipped)
        fprintf(stderr, "rrbake: %s\n", skipped);
    rrb_inputs_free(&in);
    return failed ? 1 : 0;
}

typedef struct bake_cfg {
    rrb_opts opts;
    const char *c_array;
    int quiet;
    int jobs;       /* parallel bakes in a batch */
    char *exclude[RRB_MAX_EXCLUDE];   /* --exclude GLOB */
    int nexclude;
    const rrb_board *board;   /* --target: byte order and blob budget */
    const char *endian;       /* --endian little|big */
} bake_cfg;


static int write_c_array(const char *out, const char *name, const uint8_t *d, size_t n)
{
    FILE *f = fopen(out, "w");
    size_t i;
    if (!f) {
        fprintf(stderr, "%s: cannot create: %s\n", out, strerror(errno));
        return 1;
    }
    fprintf(f, "/* romroom blob, %zu bytes, baked by rrbake. */\n#include <stdint.h>\n", n);
    fprintf(f, "const uint32_t %s_size = %zuu;\n", name, n);
    fprintf(f, "__attribute__((aligned(8))) const unsigned char %s[%zu] = {", name, n);
    for (i = 0; i < n; i++)
        fprintf(f, "%s0x%02x,", i % 16 ? "" : "\n    ", d[i]);
    fprintf(f, "\n};\n");
    return fclose(f) ? 1 : 0;
}

/* Bake one file; returns 0 or 1 (the reason is printed). */
static int bake_one(const char *in, const char *out, const bake_cfg *cfg)
{
    uint8_t *d, *final = NULL;
    size_t n, flen = 0;
    char err[RRB_ERR_MAX];
    const rrb_format *f;
    rrb_blob *b;
    int rc = 1;
    if (rrb_load_file(in, &d, &n, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    f = rrb_detect(d, n, in);
    if (!f || !f->bake) {
        fprintf(stderr, f ? "%s: %s: baking is not supported yet for this format\n"
                          : "%s:0x0: expected a room file of a supported format, found "
                            "unrecognised data\n",
                in, f ? f->name : "");
        free(d);
        return 1;
    }
    err[0] = 0;
    b = f->bake(d, n, in, &cfg->opts, err, sizeof err);
    free(d);
    if (!b) {
        fprintf(stderr, "%s\n", err[0] ? err : "bake failed");
        return 1;
    }
    /* Check the blob as written with the real loader: a big-endian one is
     * swapped back to host order through its format's schema first, so it
     * gets the validation the board would give it. */
    if (rrb_blob_finish(b, cfg->opts.big_endian, &final, &flen) == 0)
        rc = blob_open_check(final, flen, in, NULL);
    if (rc == 0 && cfg->board && cfg->board->blob_max && flen > cfg->board->blob_max &&
        !cfg->quiet)
        fprintf(stderr, "%s: warning: the blob is %zu bytes, %zu over %s's blob budget of %u "
                "bytes\n", in, flen, flen - cfg->board->blob_max, cfg->board->name,
                cfg->board->blob_max);
    if (rc == 0)
        rc = cfg->c_array ? write_c_array(out, cfg->c_array, final, flen)
                          : rrb_save_file(out, final, flen, err, sizeof err) ? 1 : 0;
    if (rc && !cfg->c_array && err[0] && final)
        fprintf(stderr, "%s\n", err);
    free(final);
    rrb_blob_free(b);
    return rc;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static void mkdirs(const char *path)
{
    char tmp[4096];
    size_t i, n = strlen(path);
    if (n >= sizeof tmp)
        return;
    memcpy(tmp, path, n + 1);
    for (i = 1; i <= n; i++)
        if (tmp[i] == '/' || tmp[i] == 0) {
            char c = tmp[i];
            tmp[i] = 0;
            mkdir(tmp, 0777);
            tmp[i] = c;
        }
}

/* Output name: replace the extension with .rrb (or .c with --c-array). */
static void out_name(char *dst, size_t cap, const char *dir, const char *rel, int c_array)
{
    const char *dot = strrchr(rel, '.'), *slash = strrchr(rel, '/');
    int keep = (dot && (!slash || dot > slash)) ? (int)(dot - rel) : (int)strlen(rel);
    snprintf(dst, cap, "%s%s%.*s%s", dir ? dir : "", dir ? "/" : "", keep, rel,
             c_array ? ".c" : ".rrb");
}

static int parse_bake_opt(int argc, char **argv, int *i, bake_cfg *cfg, const char **out)
{
    const char *a = argv[*i];
    const char *next = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (!strcmp(a, "-o") && next)
        *out = next, (*i)++;
    else if (!strcmp(a, "--endian") && next && (!strcmp(next, "little") || !strcmp(next, "big")))
        cfg->endian = next, (*i)++;
    else if (!strcmp(a, "--target") && next) {
        char known[256];
        cfg->board = rrb_board_by_name(next);
        if (!cfg->board) {
            rrb_board_names(known, sizeof known);
            fprintf(stderr, "rrbake bake: unknown target '%s' (known: %s)\n", next, known);
            return -2;
        }
        (*i)++;
    } else if (!strcmp(a, "-j") && next && atoi(next) > 0)
        cfg->jobs = atoi(next), (*i)++;
    else if (!strncmp(a, "-j", 2) && atoi(a + 2) > 0)
        cfg->jobs = atoi(a + 2);
    else if (!strcmp(a, "--c-array") && next)
        cfg->c_array = next, (*i)++;
    else if (!strcmp(a, "--strict"))
        cfg->opts.strict = 1;
    else if (!strcmp(a, "--room-scale"))
        cfg->opts.room_scale = 1;
    else if (!strcmp(a, "--collision-only"))
        cfg->opts.collision_only = 1;
    else if (!strcmp(a, "--contents") && next)
        cfg->opts.contents_rules = next, (*i)++;
    else if (!strcmp(a, "--skip-hidden"))
        cfg->opts.skip_hidden = 1;
    else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
        cfg->quiet = cfg->opts.quiet = 1;
    else if (!strcmp(a, "--exclude") && next && cfg->nexclude < RRB_MAX_EXCLUDE)
        cfg->exclude[cfg->nexclude++] = argv[*i + 1], (*i)++;
    else
        return -1;
    return 0;
}

/* One running bake of a batch: its child process and captured stderr. */
typedef struct job {
    pid_t pid;
    size_t k;
    FILE *err;
} job;

static long file_size(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 ? (long)st.st_size : 0;
}

static void progress(const bake_cfg *cfg, int tty, size_t done, size_t n, long bytes,
                     const char *current)
{
    if (cfg->quiet || n < 2)
        return;
    fprintf(stderr, tty ? "\r[%zu/%zu] %ld KB  %s\033[K" : "[%zu/%zu] %ld KB  %s\n", done, n,
            bytes / 1024, current);
}

/* Collect a finished child: count it and keep its first error line. */
static int reap(job *jobs, int *running, char **reasons, size_t *done, long *bytes,
                const rrb_inputs *b, size_t *last)
{
    int st, i, bad;
    pid_t pid = wait(&st);
    for (i = 0; i < *running && jobs[i].pid != pid; i++)
        ;
    if (i == *running)
        return 0;
    bad = !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    if (!bad) {
        char wline[RRB_ERR_MAX + 64];
        rewind(jobs[i].err);
        while (fgets(wline, sizeof wline, jobs[i].err))
            fputs(wline, stderr);  /* warnings of a bake that succeeded */
    } else {
        char line[RRB_ERR_MAX + 64] = "";
        rewind(jobs[i].err);
        if (!fgets(line, sizeof line, jobs[i].err))
            snprintf(line, sizeof line, "%s: baker crashed (status 0x%x)\n", b->v[jobs[i].k].path,
                     st);
        reasons[jobs[i].k] = rrb_xstrdup(line);
    }
    fclose(jobs[i].err);
    (*done)++;
    *last = jobs[i].k;
    *bytes += file_size(b->v[jobs[i].k].path);
    jobs[i] = jobs[--*running];
    return bad;
}

/* Bake every file of the batch, up to cfg->jobs at a time (one child
 * process each, so a crash in one file cannot take the batch down), with a
 * progress line and a summary that lists each failure with its reason. */
static int run_batch(rrb_inputs *b, const bake_cfg *cfg, int tty, const char *skipped)
{
    job *jobs = rrb_xcalloc((size_t)(cfg->jobs > 0 ? cfg->jobs : 1), sizeof *jobs);
    char **reasons = rrb_xcalloc(b->n ? b->n : 1, sizeof *reasons);
    size_t next = 0, done = 0, k, last = 0;
    long bytes = 0;
    int running = 0, failed = 0, max = cfg->jobs > 0 ? cfg->jobs : 1;
    while (next < b->n || running > 0) {
        while (running < max && next < b->n) {
            char *slash = strrchr(b->v[next].out, '/');
            if (slash) {
                *slash = 0;
                mkdirs(b->v[next].out);
                *slash = '/';
            }
            fflush(NULL);
            jobs[running].err = tmpfile();
            jobs[running].k = next;
            jobs[running].pid = fork();
            if (jobs[running].pid == 0) {
                if (jobs[running].err)
                    dup2(fileno(jobs[running].err), 2);
                _exit(bake_one(b->v[next].path, b->v[next].out, cfg));
            }
            if (jobs[running].pid < 0 || !jobs[running].err) {
                fprintf(stderr, "rrbake: cannot start a bake process: %s\n", strerror(errno));
                exit(1);
            }
            running++;
            next++;
        }
        failed += reap(jobs, &running, reasons, &done, &bytes, b, &last);
        progress(cfg, tty, done, b->n, bytes, b->v[last].path);
    }
    if (!cfg->quiet && (b->n > 1 || *skipped))
        fprintf(stderr, "%sbaked %zu, failed %d%s%s\n", tty ? "\r\033[K" : "",
                b->n - (size_t)failed, failed, *skipped ? "; " : "", skipped);
    for (k = 0; k < b->n; k++)
        if (reasons[k]) {
            fprintf(stderr, "%s%s", b->n > 1 ? "  failed: " : "", reasons[k]);
            free(reasons[k]);
        }
    free(reasons);
    free(jobs);
    return failed;
}

static int cmd_bake(int argc, char **argv)
{
    bake_cfg cfg;
    const char *out = NULL;
    rrb_inputs in = {0};
    char outp[4096], skipped[256];
    int nin = 0, i, failed, tty = isatty(2), out_dir, rc;
    size_t k;
    memset(&cfg, 0, sizeof cfg);
    cfg.jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
    for (i = 0; i < argc; i++) {
        if (argv[i][0] != '-') {
            rrb_inputs_add(&in, argv[i]);
            nin++;
        } else if ((rc = parse_bake_opt(argc, argv, &i, &cfg, &out)) != 0) {
            if (rc == -1)
                fprintf(stderr, "rrbake bake: unknown option '%s' (rrbake bake --help lists "
                        "them)\n", argv[i]);
            rrb_inputs_free(&in);
            return 2;
        }
    }
    /* --target is a board: its byte order, unless --endian says the same. */
    if (cfg.endian && cfg.board && (strcmp(cfg.endian, "big") == 0) != cfg.board->big_endian) {
        fprintf(stderr, "rrbake bake: --endian %s contradicts --target %s (%s-endian); give "
                "one of them\n", cfg.endian, cfg.board->name,
                cfg.board->big_endian ? "big" : "little");
        rrb_inputs_free(&in);
        return 2;
    }
    cfg.opts.big_endian = cfg.board ? cfg.board->big_endian
                                    : cfg.endian && !strcmp(cfg.endian, "big");
    if (!nin) {
        fprintf(stderr, "%s", usage_bake);
        return 2;
    }
    /* One file argument and -o that is not a folder: -o is the file. */
    out_dir = !(nin == 1 && in.n == 1 && !in.v[0].rel && out && !is_dir(out));
    rrb_inputs_filter(&in, cfg.exclude, cfg.nexclude, 0, 1);
    for (k = 0; k < in.n; k++) {
        rrb_input *x = &in.v[k];
        const char *base = strrchr(x->path, '/');
        if (!out_dir)
            snprintf(outp, sizeof outp, "%s", out);
        else if (x->rel)   /* mirrors the folder's tree below -o, or beside the input */
            out_name(outp, sizeof outp, out ? out : NULL, out ? x->rel : x->path,
                     cfg.c_array != NULL);
        else
            out_name(outp, sizeof outp, out, out ? (base ? base + 1 : x->path) : x->path,
                     cfg.c_array != NULL);
        x->out = rrb_xstrdup(outp);
    }
    rrb_inputs_skipped(&in, skipped, sizeof skipped);
    if (rrb_inputs_collisions(&in)) {
        rrb_inputs_free(&in);
        return 2;
    }
    failed = run_batch(&in, &cfg, tty, skipped);
    rrb_inputs_free(&in);
    return failed ? 1 : 0;
}

static int cmd_sample(int argc, char **argv)
{
    const char *which = NULL, *dir = NULL;
    char err[RRB_ERR_MAX];
    int i, rc = 0, done = 0;
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            dir = argv[++i];
        else if (!which)
            which = argv[i];
    }
    if (!which || !dir) {
        fprintf(stderr, "%s", usage_sample);
        return 2;
    }
    mkdirs(dir);
    for (i = 0; i < RRB_NFORMATS; i++) {
        const rrb_format *f = rrb_formats[i];
        if (!f || !f->sample || (strcmp(which, "all") && strcmp(which, f->name)))
            continue;
        err[0] = 0;
        if (f->sample(dir, err, sizeof err)) {
            fprintf(stderr, "rrbake sample %s: %s\n", f->name, err);
            rc = 1;
        }
        done++;
    }
    if (!done) {
        fprintf(stderr, "rrbake sample: no writer for '%s' in this build\n", which);
        return 1;
    }
    return rc;
}

/* A synthetic RAW blob of about `size` bytes (tests, benchmarks, the demo
 * before any format is linked): a string table, an info record and an
 * optional payload section of pseudo-random words. */
static int cmd_synth(int argc, char **argv)
{
    const char *out = NULL;
    long size = -1;
    int i, be = 0;
    uint32_t *words, n, x = 2463534242u;
    rrb_blob *b;
    rr_blob_info bi;
    uint8_t *bytes;
    size_t len;
    char err[RRB_ERR_MAX];
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--endian") && i + 1 < argc)
            be = !strcmp(argv[++i], "big");
        else
            size = strtol(argv[i], NULL, 0);
    }
    if (!out || size < 0 || size > (1L << 28)) {
        fputs(usage_synth, stderr);
        return 2;
    }
    b = rrb_blob_new(RR_FMT_RAW, 0);
    memset(&bi, 0, sizeof bi);
    bi.source_size = (uint32_t)size;
    bi.source_name = rrb_blob_string(b, "synthetic");
    rrb_blob_add(b, RR_SEC_INFO, &bi, 1, sizeof bi, NULL);
    n = (uint32_t)(size > 160 ? (size - 160) / 4 : 0);
    words = rrb_xcalloc(n ? n : 1, 4);
    for (i = 0; (uint32_t)i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        words[i] = x;
    }
    rrb_blob_add(b, RR_SEC_OPTIONAL | 0x10, words, n, 4, "4");
    free(words);
    if (rrb_blob_finish(b, be, &bytes, &len) || rrb_save_file(out, bytes, len, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        rrb_blob_free(b);
        return 1;
    }
    free(bytes);
    rrb_blob_free(b);
    return 0;
}

/* The tool, the blob container and each room format's schema: a blob opens
 * with a loader of the same blob format and schema versions. */
static int cmd_version(void)
{
    int i;
    printf("rrbake %d.%d (romroom)\nblob format version %d\nschema versions:", RR_VERSION_MAJOR,
           RR_VERSION_MINOR, RR_BLOB_VERSION);
    for (i = 0; i < RRB_NFORMATS; i++) {
        const rrb_format *f = rrb_formats_listed[i];
        const rrb_schema *s = f && f->room ? rrb_schema_of(f->room->format) : NULL;
        if (s)
            printf(" %s %u", s->name, s->version);
    }
    printf("\n");
    return 0;
}

static int cmd_boards(void)
{
    size_t i;
    for (i = 0; i < rrb_nboards; i++)
        printf("%-12s %s-endian %u  %s\n", rrb_boards[i].name,
               rrb_boards[i].big_endian ? "big" : "little", rrb_boards[i].blob_max,
               rrb_boards[i].what);
    return 0;
}

static int cmd_formats(void)
{
    int i;
    for (i = 0; i < RRB_NFORMATS; i++)
        if (rrb_formats[i])
            printf("%-6s %s\n", rrb_formats[i]->name, rrb_formats[i]->desc);
    return 0;
}

static int cmd_schema(int argc, char **argv)
{
    const char *out = NULL;
    int i, md = 0;
    FILE *f = stdout;
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--markdown"))
            md = 1;
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else {
            fputs(usage_schema, stderr);
            return 2;
        }
    }
    if (!md) {
        fputs(usage_schema, stderr);
        return 2;
    }
    if (out && !(f = fopen(out, "w"))) {
        fprintf(stderr, "%s: cannot create: %s\n", out, strerror(errno));
        return 1;
    }
    rrb_schema_markdown(f);
    return out && fclose(f) ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : NULL;
    int sub = argc - 2;
    char **sv = argv + 2;
    if (!cmd || !strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        fputs(usage_main, cmd ? stdout : stderr);
        return cmd ? 0 : 2;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version"))
        return cmd_version();
    if (!strcmp(cmd, "bake"))
        return has_help(sub, sv) ? (fputs(usage_bake, stdout), 0) : cmd_bake(sub, sv);
    if (!strcmp(cmd, "info"))
        return has_help(sub, sv) ? (fputs(usage_info, stdout), 0)
                                 : cmd_text(sub, sv, usage_info, 0);
    if (!strcmp(cmd, "verify"))
        return has_help(sub, sv) ? (fputs(usage_verify, stdout), 0)
                                 : cmd_text(sub, sv, usage_verify, 1);
    if (!strcmp(cmd, "dump"))
        return has_help(sub, sv) ? (fputs(usage_dump, stdout), 0)
                                 : cmd_text(sub, sv, usage_dump, 2);
    if (!strcmp(cmd, "query"))
        return has_help(sub, sv) ? (fputs(rrb_cli_query_usage(), stdout), 0)
                                 : rrb_cli_query(sub, sv, stdout, stderr);
    if (!strcmp(cmd, "preview"))
        return has_help(sub, sv) ? (fputs(rrb_cli_usage_preview, stdout), 0)
                                 : rrb_cli_preview(sub, sv, stdout, stderr);
    if (!strcmp(cmd, "convert"))
        return has_help(sub, sv) ? (fputs(rrb_cli_usage_convert, stdout), 0)
                                 : rrb_cli_convert(sub, sv, stdout, stderr);
    if (!strcmp(cmd, "sample"))
        return has_help(sub, sv) ? (fputs(usage_sample, stdout), 0) : cmd_sample(sub, sv);
    if (!strcmp(cmd, "synth"))
        return has_help(sub, sv) ? (fputs(usage_synth, stdout), 0) : cmd_synth(sub, sv);
    if (!strcmp(cmd, "boards"))
        return has_help(sub, sv) ? (fputs(usage_boards, stdout), 0) : cmd_boards();
    if (!strcmp(cmd, "formats"))
        return has_help(sub, sv) ? (fputs(usage_formats, stdout), 0) : cmd_formats();
    if (!strcmp(cmd, "schema"))
        return has_help(sub, sv) ? (fputs(usage_schema, stdout), 0) : cmd_schema(sub, sv);
    fprintf(stderr, "rrbake: unknown command '%s'\n%s", cmd, usage_main);
    return 2;
}
