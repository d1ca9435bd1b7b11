/* rrb_cli_query.c - `rrbake query`: run the runtime's queries from the shell.
 * Arguments are in source units (converted with the blob's coord_frac);
 * results are printed in source units with the raw coords in brackets.
 * The commands are the room format's (rrb_room_hooks.queries); this file
 * finds the command, checks and converts its arguments, and holds the
 * result printers the formats share. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rrb_cli.h"

static const char usage_head[] =
    "usage: rrbake query BLOB COMMAND ARGS...\n"
    "\n"
    "Run a runtime query on the host and print its result. BLOB is a little-endian\n"
    ".rrb blob or any source file rrbake can bake (baked in memory first).\n"
    "Coordinates are in source units (ROO client units, RMesh file units, RMF\n"
    "map units); results show source units and the raw coords [in brackets].\n"
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

/* ---- result printers ---- */

/* A coordinate as "source units [coords]". */
void rrb_put_coord(FILE *o, int32_t c, unsigned frac)
{
    fprintf(o, "%.6g [%d]", ldexp((double)c, -(int)frac), c);
}

void rrb_put_point(FILE *o, const char *label, const int32_t *c, int n, unsigned frac)
{
    int i;
    fprintf(o, "%s:", label);
    for (i = 0; i < n; i++)
        fprintf(o, " %.6g", ldexp((double)c[i], -(int)frac));
    fprintf(o, " [");
    for (i = 0; i < n; i++)
        fprintf(o, "%s%d", i ? " " : "", c[i]);
    fprintf(o, "]\n");
}

void rrb_put_fix(FILE *o, const char *label, rr_fix f)
{
    fprintf(o, "%s: %.6f [0x%08x]\n", label, (double)f / 65536.0, (uint32_t)f);
}

void rrb_put_vec(FILE *o, const char *label, rr_vec3 v)
{
    fprintf(o, "%s: %.6f %.6f %.6f\n", label, (double)v.x / 65536.0, (double)v.y / 65536.0,
            (double)v.z / 65536.0);
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

int rrb_cli_query(int argc, char **argv, FILE *out, FILE *errf)
{
    rrb_cli_room r;
    rrb_query q;
    char err[RRB_ERR_MAX];
    const rrb_room_hooks *h;
    const rrb_query_cmd *c;
    int n, rc, lo, hi, i, k;
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
    argc = k;
    if (argc < 2) {
        fputs(rrb_cli_query_usage(), errf);
        return 2;
    }
    if (rrb_cli_open(argv[0], &r, err, sizeof err)) {
        fprintf(errf, "%s\n", err);
        return 1;
    }
    h = rrb_room_hooks_of(r.room.format);
    for (c = h ? h->queries : NULL; c && c->name && strcmp(c->name, argv[1]); c++)
        ;
    if (c && !c->name)
        c = NULL;
    n = argc - 2;
    lo = c ? abs(c->nmin) : 0, hi = c ? abs(c->nmax) : 0;
    if (c && (n < lo || n > hi)) {   /* the command's own usage line */
        fprintf(errf, "%s: query %s: expected %s%d argument%s, found %d\n"
                "usage: rrbake query ROOM %s %s\n", argv[0], c->name,
                lo == hi ? "" : n < lo ? "at least " : "at most ", n < lo ? lo : hi,
                (n < lo ? lo : hi) == 1 ? "" : "s", n, c->name, c->args);
        rrb_cli_close(&r);
        return 2;
    }
    if (!c) {
        fprintf(errf, "%s: query: expected a command for a %s room, found '%s'\n"
                "(rrbake query --help lists the commands and their arguments)\n",
                argv[0], rrb_room_format_name(r.room.format), argv[1]);
        rrb_cli_close(&r);
        return 2;
    }
    memset(&q, 0, sizeof q);
    q.room = &r.room, q.out = out, q.errf = errf, q.path = argv[0];
    q.frac = r.room.coord_frac;
    if (c->nmin >= 0 && convert_args(&q, c, n, argv + 2)) {
        rrb_cli_close(&r);
        return 2;
    }
    rc = c->run(&q, n, argv + 2);
    rrb_cli_close(&r);
    return rc;
}
