/* rrb_cli_query.c - `rrbake query`: run the runtime's queries from the shell.
 * Arguments are in source units (converted with the blob's coord_frac);
 * results are printed in source units with the raw coords in brackets.
 * The commands are the room format's (rrb_room_hooks.queries); this file
 * finds the command, checks and converts its arguments, and holds the
 * result printers the formats share. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "rrb_cli.h"

static const char usage_head[] =
    "usage: rrbake query BLOB COMMAND ARGS... [--json] [--svg OUT.svg]\n"
    "\n"
    "Run a runtime query on the host and print its result. BLOB is a little-endian\n"
    ".rrb blob or any source file rrbake can bake (baked in memory first).\n"
    "Coordinates are in source units (ROO client units, RMesh file units, RMF\n"
    "map units); results show source units and the raw coords [in brackets].\n"
    "\n"
    "  --json        the answer as one JSON object on one line: the same fields,\n"
    "                and NAME_raw (the fixed-point words) beside values in units\n"
    "  --svg OUT     also write the room's plan with the query drawn on it (start,\n"
    "                path, stop or hit point, the leaf / triangle / brush found)\n"
    "A source file is read with --entity-defs FILE (RMesh: CBRE-EX entity\n"
    "definitions) and --strict (a warning is an error), given anywhere.\n"
    "\n";

/* "  name ARGS    help": the help in column 38 (two spaces after a longer
 * synopsis), its further lines indented to the same column. */
static void put_command(FILE *f, const rrb_query_cmd *c)
{
    char syn[128];
    const char *h = c->help, *nl;
    snprintf(syn, sizeof syn, "%s%s%s", c->name, *c->args ? " " : "", c->args);
    fprintf(f, "  %-35s%s", syn, strlen(syn) > 35 ? "  " : " ");
    while ((nl = strchr(h, '\n')) != NULL) {
        fprintf(f, "%.*s\n%38s", (int)(nl - h), h, "");
        h = nl + 1;
    }
    fprintf(f, "%s\n", h);
}

const char *rrb_cli_query_usage(void)
{
    static char *usage;
    const rrb_query_cmd *c;
    size_t i, len;
    FILE *f;
    if (usage)
        return usage;
    f = open_memstream(&usage, &len);
    fputs(usage_head, f);
    for (i = 0; i < RRB_NFORMATS; i++) {
        const rrb_format *fmt = rrb_formats_listed[i];
        if (!fmt || !fmt->room || !fmt->room->queries)
            continue;
        fprintf(f, "%s:\n", fmt->room->query_title);
        for (c = fmt->room->queries; c->name; c++)
            put_command(f, c);
    }
    fclose(f);
    return usage;
}

/* ---- the answer's fields (text lines or one JSON object) ---- */

/* JSON: the comma before a value and its key (none inside an array). */
static void json_key(rrb_query *q, const char *key)
{
    if (q->nfield[q->depth]++)
        fputc(',', q->out);
    if (key) {
        rrb_json_str(q->out, key);
        fputc(':', q->out);
    }
}

/* Text: "prefix key: " */
static void text_key(rrb_query *q, const char *key)
{
    fprintf(q->out, "%s%s: ", q->prefix[q->depth] ? q->prefix[q->depth] : "", key);
}

static void key_raw(char *dst, size_t cap, const char *key)
{
    snprintf(dst, cap, "%s_raw", key);
}

void rrb_q_int(rrb_query *q, const char *key, long long v)
{
    if (q->json) {
        json_key(q, key);
        fprintf(q->out, "%lld", v);
    } else {
        text_key(q, key);
        fprintf(q->out, "%lld\n", v);
    }
}

void rrb_q_hex(rrb_query *q, const char *key, uint32_t v, int digits)
{
    if (q->json) {
        json_key(q, key);
        fprintf(q->out, "%u", v);
    } else {
        text_key(q, key);
        fprintf(q->out, "0x%0*x\n", digits, v);
    }
}

void rrb_q_str(rrb_query *q, const char *key, const char *s)
{
    if (q->json) {
        json_key(q, key);
        rrb_json_str(q->out, s ? s : "");
    } else {
        text_key(q, key);
        fprintf(q->out, "%s\n", s ? s : "");
    }
}

void rrb_q_raw(rrb_query *q, const char *key, const char *json)
{
    if (q->json) {
        json_key(q, key);
        fputs(json, q->out);
    }
}

void rrb_q_bool(rrb_query *q, const char *key, int v)
{
    if (q->json) {
        json_key(q, key);
        fputs(v ? "true" : "false", q->out);
    }
}

/* A coordinate in source units, as the text prints it (%.6g). */
static double unit(const rrb_query *q, int32_t c)
{
    return ldexp((double)c, -(int)q->frac);
}

void rrb_q_coord(rrb_query *q, const char *key, int32_t c)
{
    char rk[64];
    if (q->json) {
        json_key(q, key);
        fprintf(q->out, "%.6g", unit(q, c));
        key_raw(rk, sizeof rk, key);
        json_key(q, rk);
        fprintf(q->out, "%d", c);
    } else {
        text_key(q, key);
        fprintf(q->out, "%.6g [%d]\n", unit(q, c), c);
    }
}

void rrb_q_point(rrb_query *q, const char *key, const int32_t *c, int n)
{
    char rk[64];
    int i;
    if (q->json) {
        json_key(q, key);
        for (i = 0; i < n; i++)
            fprintf(q->out, "%s%.6g", i ? "," : "[", unit(q, c[i]));
        key_raw(rk, sizeof rk, key);
        fputc(']', q->out);
        json_key(q, rk);
        for (i = 0; i < n; i++)
            fprintf(q->out, "%s%d", i ? "," : "[", c[i]);
        fputc(']', q->out);
        return;
    }
    fprintf(q->out, "%s%s:", q->prefix[q->depth] ? q->prefix[q->depth] : "", key);
    for (i = 0; i < n; i++)
        fprintf(q->out, " %.6g", unit(q, c[i]));
    fprintf(q->out, " [");
    for (i = 0; i < n; i++)
        fprintf(q->out, "%s%d", i ? " " : "", c[i]);
    fprintf(q->out, "]\n");
}

void rrb_q_fix(rrb_query *q, const char *key, rr_fix f)
{
    char rk[64];
    if (q->json) {
        json_key(q, key);
        fprintf(q->out, "%.6f", (double)f / 65536.0);
        key_raw(rk, sizeof rk, key);
        json_key(q, rk);
        fprintf(q->out, "%d", f);
    } else {
        text_key(q, key);
        fprintf(q->out, "%.6f [0x%08x]\n", (double)f / 65536.0, (uint32_t)f);
    }
}

void rrb_q_vec(rrb_query *q, const char *key, rr_vec3 v)
{
    char rk[64];
    if (q->json) {
        json_key(q, key);
        fprintf(q->out, "[%.6f,%.6f,%.6f]", (double)v.x / 65536.0, (double)v.y / 65536.0,
                (double)v.z / 65536.0);
        key_raw(rk, sizeof rk, key);
        json_key(q, rk);
        fprintf(q->out, "[%d,%d,%d]", v.x, v.y, v.z);
    } else {
        text_key(q, key);
        fprintf(q->out, "%.6f %.6f %.6f\n", (double)v.x / 65536.0, (double)v.y / 65536.0,
                (double)v.z / 65536.0);
    }
}

/* "key: total note" then the listed ids on one line (none: no line). */
void rrb_q_ids(rrb_query *q, const char *key, uint32_t total, const char *note,
               const uint32_t *ids, uint32_t n)
{
    char lk[64];
    uint32_t k;
    if (q->json) {
        json_key(q, key);
        fprintf(q->out, "%u", total);
        snprintf(lk, sizeof lk, "%s_list", key);
        json_key(q, lk);
        for (k = 0; k < n; k++)
            fprintf(q->out, "%s%u", k ? "," : "[", ids[k]);
        fprintf(q->out, "%s", n ? "]" : "[]");
        return;
    }
    text_key(q, key);
    fprintf(q->out, "%u%s\n", total, note ? note : "");
    for (k = 0; k < n; k++)
        fprintf(q->out, "%s%u", k ? " " : "", ids[k]);
    if (n)
        fprintf(q->out, "\n");
}

void rrb_q_open(rrb_query *q, const char *key, int array, const char *text_prefix)
{
    if (q->depth >= RRB_Q_DEPTH)
        return;
    if (q->json) {
        json_key(q, key);
        fputc(array ? '[' : '{', q->out);
    }
    q->depth++;
    q->nfield[q->depth] = 0;
    q->closer[q->depth] = array ? ']' : '}';
    q->prefix[q->depth] = text_prefix;
}

void rrb_q_close(rrb_query *q)
{
    if (q->depth == 0)
        return;
    if (q->json)
        fputc(q->closer[q->depth], q->out);
    q->depth--;
}

void rrb_q_line(rrb_query *q, const char *fmt, ...)
{
    va_list ap;
    if (q->json)
        return;
    va_start(ap, fmt);
    vfprintf(q->out, fmt, ap);
    va_end(ap);
    fputc('\n', q->out);
}

int rrb_query_fail(rrb_query *q, rr_err e, const char *what)
{
    fprintf(q->errf, "%s: %s: %s\n", q->path, what, rr_strerror(e));
    return 1;
}

rr_fix rrb_cli_to_fix(double v)
{
    double f = v * 65536.0;
    if (f > 2147483647.0)
        return RR_FIX_MAX;
    if (f < -2147483648.0)
        return RR_FIX_MIN;
    return (rr_fix)(f >= 0 ? floor(f + 0.5) : -floor(-f + 0.5));
}

/* ---- the command ---- */

/* Convert the numeric arguments: every one is a coordinate except those the
 * command marks plain (an RMesh ray's direction, for one). */
static int convert_args(rrb_query *q, const rrb_query_cmd *c, int argc, char **argv)
{
    int i;
    for (i = 0; i < argc; i++) {
        int plain = (c->plain >> i) & 1;
        if (rrb_cli_num(argv[i], &q->v[i])) {
            fprintf(q->errf, "%s: query %s: argument %d: expected a number, found '%s'\n",
                    q->path, c->name, i + 1, argv[i]);
            return -1;
        }
        if (!plain && rrb_cli_to_coord(q->v[i], q->frac, &q->c[i])) {
            fprintf(q->errf, "%s: query %s: argument %d: expected a coordinate that fits "
                    "int32 at %u fractional bits, found %s\n", q->path, c->name, i + 1,
                    q->frac, argv[i]);
            return -1;
        }
    }
    return 0;
}

/* The answer as one JSON object: what was asked, then the fields. */
static void json_head(rrb_query *q, const char *format, const char *cmd, int argc, char **argv)
{
    int i;
    fprintf(q->out, "{\"file\":");
    rrb_json_str(q->out, q->path);
    fprintf(q->out, ",\"format\":\"%s\",\"query\":", format);
    rrb_json_str(q->out, cmd);
    fprintf(q->out, ",\"args\":[");
    for (i = 0; i < argc; i++) {
        if (i)
            fputc(',', q->out);
        rrb_json_str(q->out, argv[i]);
    }
    fprintf(q->out, "],\"coord_frac\":%u", q->frac);
    q->nfield[0] = 5;
}

/* Take the options --json and --svg OUT out of the arguments (anywhere after
 * the room; a command's own options, like pose's --clamp, stay). */
static int take_options(int *argc, char **argv, int *json, const char **svg, FILE *errf)
{
    int i, n = 0;
    for (i = 0; i < *argc; i++) {
        if (i > 0 && !strcmp(argv[i], "--json")) {
            *json = 1;
        } else if (i > 0 && !strcmp(argv[i], "--svg")) {
            if (i + 1 >= *argc) {
                fprintf(errf, "rrbake query: --svg: expected an output file name\n");
                return -1;
            }
            *svg = argv[++i];
        } else {
            argv[n++] = argv[i];
        }
    }
    *argc = n;
    return 0;
}

static int has_plan(const rrb_room_hooks *h)
{
    return h->write_svg != NULL && h->plan_xy != NULL;
}

/* The query's words into argv (at most 63), without the options --json,
 * --svg OUT and the source-reading ones, which are set; the number of
 * words left, or -1 (the message printed). */
static int query_words(int argc, char **argv_in, char **argv, int *json, const char **svg,
                       FILE *errf)
{
    int i, k;
    if (argc > 63) {
        fprintf(errf, "rrbake query: expected at most 63 arguments, found %d\n", argc);
        return -1;
    }
    for (i = 0; i < argc; i++)
        argv[i] = argv_in[i];
    if (take_options(&argc, argv, json, svg, errf))
        return -1;
    /* the source-reading options, taken out of the arguments (numbers may
     * be negative, so no other word starting with '-' is an option here) */
    for (i = k = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--entity-defs") && i + 1 < argc)
            rrb_text_opts.entity_defs = argv[++i];
        else if (!strcmp(argv[i], "--strict"))
            rrb_text_opts.strict = 1;
        else
            argv[k++] = argv[i];
    }
    return k;
}

/* The room's command argv[1] with its n arguments, or NULL (the message
 * printed): a command the room's format has, with as many arguments as it
 * takes, and --svg only for a format with plans. */
static const rrb_query_cmd *query_cmd(const rrb_cli_room *r, const rrb_room_hooks *h,
                                      char **argv, int n, const char *svg, FILE *errf)
{
    const rrb_query_cmd *c;
    char names[64];
    int lo, hi;
    for (c = h ? h->queries : NULL; c && c->name && strcmp(c->name, argv[1]); c++)
        ;
    if (!c || !c->name) {
        fprintf(errf, "%s: query: expected a command for a %s room, found '%s'\n"
                "(rrbake query --help lists the commands and their arguments)\n",
                argv[0], rrb_room_format_name(r->room.format), argv[1]);
        return NULL;
    }
    lo = abs(c->nmin), hi = abs(c->nmax);
    if (n < lo || n > hi) {   /* the command's own usage line */
        fprintf(errf, "%s: query %s: expected %s%d argument%s, found %d\n"
                "usage: rrbake query ROOM %s %s\n", argv[0], c->name,
                lo == hi ? "" : n < lo ? "at least " : "at most ", n < lo ? lo : hi,
                (n < lo ? lo : hi) == 1 ? "" : "s", n, c->name, c->args);
        return NULL;
    }
    if (svg && !has_plan(h)) {
        rrb_format_names(names, sizeof names, has_plan);
        fprintf(errf, "%s: query --svg: expected a %s room (they have plans), found a %s "
                "room\n", argv[0], names, rrb_room_format_name(r->room.format));
        return NULL;
    }
    return c;
}

int rrb_cli_query(int argc, char **argv_in, FILE *out, FILE *errf)
{
    rrb_cli_room r;
    rrb_query q;
    rrb_marks marks;
    char err[RRB_ERR_MAX], *argv[64], *jbuf = NULL;
    size_t jlen = 0;
    const rrb_query_cmd *c;
    const char *svg = NULL;
    int n, rc, json = 0;
    argc = query_words(argc, argv_in, argv, &json, &svg, errf);
    if (argc < 0)
        return 2;
    if (argc < 2) {
        fputs(rrb_cli_query_usage(), errf);
        return 2;
    }
    if (rrb_cli_open(argv[0], &r, err, sizeof err)) {
        fprintf(errf, "%s\n", err);
        return 1;
    }
    n = argc - 2;
    c = query_cmd(&r, rrb_room_hooks_of(r.room.format), argv, n, svg, errf);
    if (!c) {
        rrb_cli_close(&r);
        return 2;
    }
    memset(&q, 0, sizeof q);
    memset(&marks, 0, sizeof marks);
    q.room = &r.room, q.out = out, q.errf = errf, q.path = argv[0];
    q.frac = r.room.coord_frac;
    q.json = json;
    q.marks = svg ? &marks : NULL;
    if (c->nmin >= 0 && convert_args(&q, c, n, argv + 2)) {
        rrb_cli_close(&r);
        return 2;
    }
    if (json) {   /* kept aside: a query that fails prints no half object */
        q.out = open_memstream(&jbuf, &jlen);
        json_head(&q, rrb_room_format_name(r.room.format), c->name, n, argv + 2);
    }
    rc = c->run(&q, n, argv + 2);
    if (json) {
        while (q.depth)
            rrb_q_close(&q);
        fprintf(q.out, "}\n");
        fclose(q.out);
        if (rc == 0)
            fwrite(jbuf, 1, jlen, out);
        free(jbuf);
    }
    if (rc == 0 && svg && rrb_cli_write_svg_marks(&r, svg, &marks, NULL, err, sizeof err)) {
        fprintf(errf, "%s\n", err);
        rc = 1;
    }
    rrb_marks_free(&marks);
    rrb_cli_close(&r);
    return rc;
}
