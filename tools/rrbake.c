/* rrbake.c - the command-line front end: the command table, info, verify,
 * dump, sample, synth, boards, formats, schema and --version. Each source
 * format lives in its own module (rrb_format.h); bake and pack are in
 * rrb_cli_bake.c, query / preview / convert in rrb_cli_*.c. */
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
    "  pack IN... -o ROOMS.c  bake rooms into one C source (+ .h) for a firmware\n"
    "  info FILE... [--json]  summary of source files or blobs (folders: every room)\n"
    "  verify FILE...         full consistency check (exit status 0 = ok)\n"
    "  dump FILE --json       whole content of a source file as JSON\n"
    "  query BLOB CMD ARGS    run a runtime query (locate, height, ray, trace, pose...)\n"
    "                         [--json] [--svg PLAN.svg]\n"
    "  emulate --board B ROOM QUERIES  answer a file of queries on a QEMU board\n"
    "  preview FILE -o OUT    OBJ (+MTL) geometry or SVG plan of a room\n"
    "  convert FILE -o OUT    RMF -> Valve-220 .map, RMesh/ROO -> OBJ, RMesh/EMI -> glTF\n"
    "                         (.gltf or .glb)\n"
    "  sample FORMAT|all -o DIR  write the project's own sample files\n"
    "  formats                list the supported source formats\n"
    "  boards                 list the boards of --target, with their blob budgets\n"
    "  schema --markdown      the blob format of every room format (docs/blob-format.md)\n"
    "  --version              versions of rrbake, the blob format and each schema\n"
    "\n"
    "Run 'rrbake COMMAND --help' for the options of a command.\n";

static const char usage_info[] =
    "usage: rrbake info FILE... [--json] [--entity-defs FILE] [--strict]\n"
    "\n"
    "FILE may be a folder: every room source and blob below it (other files are\n"
    "skipped and counted). With several files, --json prints a JSON array.\n"
    "Print a summary of a source room file (any supported format) or of a .rrb\n"
    "blob (header, sections, sizes, arena, depth, and for a little-endian blob\n"
    "the room itself as the runtime sees it: counts, bounds, animations...).\n"
    "--json prints one JSON object (blobs: the room summary under \"room\").\n"
    "--entity-defs FILE: RMesh, decode CBRE-EX custom entities with these JSON\n"
    "definitions (a file or the editor's Entities folder); --strict: a room whose\n"
    "entities cannot all be decoded is an error, not a warning.\n";

static const char usage_verify[] =
    "usage: rrbake verify FILE... [--entity-defs FILE] [--strict]\n"
    "\n"
    "FILE may be a folder: every room source and blob below it. Every line starts\n"
    "with the file's name; several files end with a count of ok and failed.\n"
    "Source file: full consistency check of the format (ROO checksum, RMF planes,\n"
    "EMI hierarchy...). Blob, of either byte order: the same validation rr_open\n"
    "does on the board (a big-endian blob is swapped to host order through its\n"
    "schema first), naming the section, record, field and byte offset of the\n"
    "first problem. Exit status 0 when the file is sound.\n"
    "--entity-defs FILE and --strict as for info.\n";

static const char usage_dump[] =
    "usage: rrbake dump FILE --json [--entity-defs FILE] [--strict]\n"
    "\n"
    "Print the whole content of a source room file as JSON (an EMI figure\n"
    "manifest: each file it names; a blob, of either byte order: its header and\n"
    "every record of every section, field by field as the schema names them).\n"
    "--entity-defs FILE and --strict as for info.\n";

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
    uint32_t i, ns;
    uint8_t *c = rrb_blob_host_copy(d, n, &be);
    const rr_blob_header *h = (const rr_blob_header *)(const void *)c;
    rrb_span t[RR_MAX_SECTIONS];
    if (!c) {
        fprintf(stderr, "%s:0x0: expected a 48-byte blob header, found %zu bytes\n", path, n);
        return 1;
    }
    if (h->nsections > RR_MAX_SECTIONS || RR_TABLE_END(h->nsections) > n) {
        fprintf(stderr, "%s:0x%x: expected at most %u sections inside the file, found %u\n", path,
                (unsigned)offsetof(rr_blob_header, nsections), RR_MAX_SECTIONS, h->nsections);
        free(c);
        return 1;
    }
    ns = rrb_blob_spans(c, n, t, RR_MAX_SECTIONS);   /* fewer when the table is damaged */
    if (json) {
        fprintf(out, "{\"format\":\"blob\",\"room_format\":\"%s\",\"endian\":\"%s\",\"version\":%u,"
               "\"coord_frac\":%u,\"size\":%u,\"checksum\":%u,\"arena\":%u,\"max_depth\":%u,"
               "\"sections\":[",
               rrb_room_format_name(h->format), be ? "big" : "little", h->version, h->fixed & 0xff,
               h->total_size, be ? rrb_rd32(d + offsetof(rr_blob_header, checksum), 1) : h->checksum,
               h->arena, h->max_depth);
        for (i = 0; i < ns; i++)
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
           rrb_room_format_name(h->format), be ? "big" : "little");
    fprintf(out, "  size %u bytes, crc32 0x%08x, coordinates with %u fractional bits\n", h->total_size,
           be ? rrb_rd32(d + offsetof(rr_blob_header, checksum), 1) : h->checksum, h->fixed & 0xff);
    fprintf(out, "  arena %u bytes, max tree depth %u, %u sections:\n", h->arena, h->max_depth,
           h->nsections);
    for (i = 0; i < ns; i++)
        fprintf(out, "    %-12s type 0x%04x  offset %8u  size %8u  count %8u\n",
               section_name(h->format, t[i].type), t[i].type, t[i].offset, t[i].size, t[i].count);
    blob_room_info(path, 0, out);
    free(c);
    return 0;
}

static int blob_verify(const uint8_t *d, size_t n, const char *path, FILE *out)
{
    return rrb_cli_check_blob(d, n, path, out);
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
    if (f->members &&
        (rc = f->members(d, n, path, which, which == 2 || json, out, stderr)) >= 0) {
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
    if (rc && err[0]) {
        rrb_err_hint(err, sizeof err, d, n);
        fprintf(stderr, "%s\n", err);
    }
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
    int json = 0, i, nargs = 0, failed = 0, array;
    size_t k;
    char skipped[256];
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--entity-defs") && i + 1 < argc) {
            rrb_text_opts.entity_defs = argv[++i];   /* RMesh custom entities */
        } else if (!strcmp(argv[i], "--strict")) {
            rrb_text_opts.strict = 1;
        } else if (argv[i][0] == '-' || (which == 2 && nargs)) {
            fprintf(stderr, "rrbake: unexpected argument '%s'\n%s", argv[i], usage);
            rrb_inputs_free(&in);
            return 2;
        } else {
            if (which == 2 && rrb_is_dir(argv[i])) {
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
    array = json && which == 0 && (in.n != 1 || in.v[0].rel);   /* info --json of several */
    if (array)
        printf("[");
    for (k = 0; k < in.n; k++) {
        if (array && k)
            printf(",");
        fflush(stdout);
        failed += which == 1 ? verify_one(in.v[k].path) : text_one(in.v[k].path, which, json,
                                                                     stdout);
    }
    if (array)
        printf("]\n");
    if (which == 1 && (in.n != 1 || *skipped))
        printf("%zu file%s: %zu ok, %d failed%s%s\n", in.n, in.n == 1 ? "" : "s",
               in.n - (size_t)failed, failed, *skipped ? "; " : "", skipped);
    else if (*skipped)
        fprintf(stderr, "rrbake: %s\n", skipped);
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
    rrb_mkdirs(dir);
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
        return has_help(sub, sv) ? (fputs(rrb_cli_usage_bake, stdout), 0) : rrb_cli_bake(sub, sv);
    if (!strcmp(cmd, "pack"))
        return has_help(sub, sv) ? (fputs(rrb_cli_usage_pack, stdout), 0) : rrb_cli_pack(sub, sv);
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
    if (!strcmp(cmd, "emulate"))
        return has_help(sub, sv) ? (fputs(rrb_cli_usage_emulate, stdout), 0) : rrb_cli_emulate(sub, sv);
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
