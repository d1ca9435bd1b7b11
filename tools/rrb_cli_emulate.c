/* rrb_cli_emulate.c - `rrbake emulate --board BOARD ROOM QUERIES [--expect FILE]`:
 * a room's queries answered on a QEMU board and compared with the host's.
 *
 * The queries (`rrbake query` lines) are parsed and converted here, run on
 * the host loader with rre_run() (rrb_emu.c), and written with the blob in
 * the board's byte order into an input image that QEMU's generic loader
 * device puts into the board's memory; the board program rr-emulate.elf
 * (tools/emulate/rr_emulate.c) runs the same rre_run() there. The program
 * is found next to rrbake: PREFIX/lib/romroom/<board>/rr-emulate.elf when
 * installed, build/<board>/rr-emulate.elf in the build tree, or --program. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rr_blobfmt.h"
#include "rrb_boards.h"
#include "rrb_cli.h"
#include "rrb_emu.h"
#include "rrb_schema.h"

const char rrb_cli_usage_emulate[] =
    "usage: rrbake emulate --board BOARD ROOM QUERIES [--expect FILE] [--program ELF]\n"
    "                      [--timeout SECONDS]\n"
    "\n"
    "Answer the queries of the file QUERIES, one `rrbake query` command a line\n"
    "(\"height 3000 3000\", \"ray 0 100 0 0 -1 0 10000\"; blank lines and # comments\n"
    "are skipped), on the QEMU board BOARD against ROOM (a source file or a blob)\n"
    "and on the host, and compare them. Prints one line per query,\n"
    "\"QUERY => ANSWER\" (the board's answer: raw coords, 16.16 values in hex), which\n"
    "a later run can take as --expect FILE: then every line must also equal FILE's.\n"
    "Queries run on a board: roo locate height move slide sight grid; rmesh ray\n"
    "sweep trigger box; rmf contents trace box. --program: the board program\n"
    "(default: rr-emulate.elf of the install or build tree beside rrbake).\n"
    "--timeout: seconds QEMU may run (default 120). Needs QEMU (qemu-system-arm,\n"
    "qemu-system-mips/mipsel).\n"
    "Exit status: 0 every answer equal, 1 an answer differs (or the room does not\n"
    "open), 2 usage or query file error, 3 the board program could not run.\n";

/* The QEMU command of each board: BOARD_QEMU and BOARD_QEMU_ARGS of
 * platform/<board>/board.mk (tests/host/test_cli.c checks they agree). */
static const struct {
    const char *board, *qemu, *args;
} qemus[] = {
    {"mps2-an385", "qemu-system-arm",
     "-M mps2-an385 -display none -serial none -monitor none -chardev stdio,id=sh0 "
     "-semihosting-config enable=on,target=native,chardev=sh0"},
    {"versatilepb", "qemu-system-arm",
     "-M versatilepb -cpu arm926 -display none -serial none -monitor none "
     "-audiodev none,id=snd0 -global pl041.audiodev=snd0 -chardev stdio,id=sh0 "
     "-semihosting-config enable=on,target=native,chardev=sh0"},
    {"malta-be", "qemu-system-mips",
     "-M malta -display none -vga none -nic none -monitor none -serial stdio -semihosting"},
    {"malta-le", "qemu-system-mipsel",
     "-M malta -display none -vga none -nic none -monitor none -serial stdio -semihosting"},
    {"microbit", "qemu-system-arm",
     "-M microbit -display none -serial none -monitor none -chardev stdio,id=sh0 "
     "-semihosting-config enable=on,target=native,chardev=sh0"},
};

const char *rrb_emulate_qemu(const char *board, const char **args)
{
    size_t i;
    for (i = 0; i < sizeof qemus / sizeof qemus[0]; i++)
        if (!strcmp(qemus[i].board, board)) {
            *args = qemus[i].args;
            return qemus[i].qemu;
        }
    return NULL;
}

/* One query of the file: where it is, its text, the converted query and the host's answer. */
typedef struct emu_q {
    unsigned line;
    char *text;
    rre_query q;
    char *host;
} emu_q;

static void put32(uint8_t *p, uint32_t v, int be)
{
    int i;
    for (i = 0; i < 4; i++)
        p[be ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

/* "word word ..." of a line: split in place on blanks, the first max words
 * into w[]; the count of all of them. */
static int split(char *s, char **w, int max)
{
    int n = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\r')
            *s++ = 0;
        if (!*s)
            break;
        if (n < max)
            w[n] = s;
        n++;
        while (*s && *s != ' ' && *s != '\t' && *s != '\r')
            s++;
    }
    return n;
}

/* Parse one query line into *e; 0 ok, else the message is in err. */
static int parse_line(const rr_room *room, char *text, emu_q *e, const char *path, char *err,
                      size_t cap)
{
    char *w[RRE_MAX_ARGS + 2];
    const rrb_room_hooks *h = rrb_room_hooks_of(room->format);
    const rrb_query_cmd *c = NULL;
    const char *fmt = rrb_room_format_name(room->format);
    int n = split(text, w, RRE_MAX_ARGS + 1), i;
    for (c = h ? h->queries : NULL; c && c->name && strcmp(c->name, w[0]); c++)
        ;
    if (!c || !c->name || !(e->q.op = rre_op_find(room->format, w[0]))) {
        snprintf(err, cap, "%s:%u: expected a query of a %s room run on boards (%s), found '%s'%s",
                 path, e->line, fmt, rre_op_names(room->format), w[0],
                 c && c->name ? " (a host-only query: use rrbake query)" : "");
        return -1;
    }
    if (n - 1 < c->nmin || n - 1 > c->nmax) {
        snprintf(err, cap, "%s:%u: query %s: expected %s%d arguments, found %d (usage: %s %s)",
                 path, e->line, c->name, c->nmin == c->nmax ? "" : n - 1 < c->nmin ? "at least " :
                 "at most ", n - 1 < c->nmin ? c->nmin : c->nmax, n - 1, c->name, c->args);
        return -1;
    }
    e->q.nargs = (uint32_t)(n - 1);
    for (i = 0; i < n - 1; i++) {
        double v;
        int plain = (int)(c->plain >> i) & 1;
        if (rrb_cli_num(w[i + 1], &v)) {
            snprintf(err, cap, "%s:%u: query %s: argument %d: expected a number, found '%s'",
                     path, e->line, c->name, i + 1, w[i + 1]);
            return -1;
        }
        if (plain && e->q.op == RRE_RMESH_RAY) {
            e->q.a[i] = rrb_cli_to_fix(v);          /* a direction component */
        } else if (plain) {
            if (v != (double)(int32_t)v || v < 0) { /* a count (sweep's slides) */
                snprintf(err, cap, "%s:%u: query %s: argument %d: expected a whole number "
                         ">= 0, found '%s'", path, e->line, c->name, i + 1, w[i + 1]);
                return -1;
            }
            e->q.a[i] = (int32_t)v;
        } else if (rrb_cli_to_coord(v, room->coord_frac, &e->q.a[i])) {
            snprintf(err, cap, "%s:%u: query %s: argument %d: expected a coordinate that fits "
                     "int32 at %u fractional bits, found %s", path, e->line, c->name, i + 1,
                     room->coord_frac, w[i + 1]);
            return -1;
        }
    }
    return 0;
}

/* The words of text t joined by single blanks (how a query is shown). */
static char *joined(const char *t)
{
    char *copy = rrb_xstrdup(t), *w[RRE_MAX_ARGS + 2], *text = rrb_xmalloc(strlen(t) + 1);
    int k, m = split(copy, w, RRE_MAX_ARGS + 1);
    size_t at = 0;
    text[0] = 0;
    for (k = 0; k < m && k <= RRE_MAX_ARGS; k++)
        at += (size_t)sprintf(text + at, "%s%s", k ? " " : "", w[k]);
    free(copy);
    return text;
}

static void free_queries(emu_q *qs, int n)
{
    while (n-- > 0)
        free(qs[n].text), free(qs[n].host);
    free(qs);
}

/* The queries of the file, parsed and answered on the host; count or -1. */
static int load_queries(const char *path, const rr_room *room, emu_q **out)
{
    uint8_t *d;
    size_t n, at = 0, cap = 0;
    char err[RRB_ERR_MAX];
    emu_q *qs = NULL;
    int nq = 0, rc = 0;
    unsigned line = 0;
    rre_line ans;
    if (rrb_load_file(path, &d, &n, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    while (at < n && !rc) {
        size_t end = at;
        char *s, *t;
        while (end < n && d[end] != '\n')
            end++;
        line++;
        s = rrb_xmalloc(end - at + 1);
        memcpy(s, d + at, end - at);
        s[end - at] = 0;
        for (t = s; *t == ' ' || *t == '\t' || *t == '\r'; t++)
            ;
        if (memchr(d + at, 0, end - at)) {
            fprintf(stderr, "%s:%u: expected a line of text, found a NUL byte (is it a text "
                    "file of queries?)\n", path, line);
            rc = -1;
        } else if (*t && *t != '#') {
            qs = rrb_grow(qs, &cap, (size_t)nq + 1, sizeof *qs);
            memset(&qs[nq], 0, sizeof qs[nq]);
            qs[nq].line = line;
            qs[nq].text = joined(t);
            if (parse_line(room, t, &qs[nq], path, err, sizeof err)) {
                fprintf(stderr, "%s\n", err);
                rc = -1;
            } else {
                rre_run(room, &qs[nq].q, &ans);
                qs[nq].host = rrb_xstrdup(ans.s);
            }
            nq++;
        }
        free(s);
        at = end + 1;
    }
    free(d);
    if (!rc && !nq) {
        fprintf(stderr, "%s: expected at least one query line, found none\n", path);
        rc = -1;
    }
    if (rc) {
        free_queries(qs, nq);
        return -1;
    }
    *out = qs;
    return nq;
}

/* The input image for the board: header, queries, blob (board byte order). */
static uint8_t *make_image(const rrb_cli_room *r, const emu_q *qs, int nq, int be, size_t *size)
{
    size_t qoff = RRE_HEADER_WORDS * 4, boff, total, i;
    uint8_t *img, *blob;
    boff = (qoff + (size_t)nq * RRE_QUERY_WORDS * 4 + 7) & ~(size_t)7;
    total = boff + r->size;
    img = rrb_xcalloc(total, 1);
    put32(img, RRE_MAGIC, be), put32(img + 4, RRE_VERSION, be);
    put32(img + 8, (uint32_t)total, be), put32(img + 12, (uint32_t)boff, be);
    put32(img + 16, (uint32_t)r->size, be), put32(img + 20, (uint32_t)qoff, be);
    put32(img + 24, (uint32_t)nq, be);
    for (i = 0; i < (size_t)nq; i++) {
        uint8_t *p = img + qoff + i * RRE_QUERY_WORDS * 4;
        int k;
        put32(p, qs[i].q.op, be), put32(p + 4, qs[i].q.nargs, be);
        for (k = 0; k < RRE_MAX_ARGS; k++)
            put32(p + 8 + 4 * k, (uint32_t)qs[i].q.a[k], be);
    }
    blob = img + boff;
    memcpy(blob, r->blob, r->size);     /* the host's (little-endian) copy */
    if (be) {   /* swapped through the schema, checksum computed again */
        rrb_swap_blob(blob, r->size, 0);
        put32(blob + offsetof(rr_blob_header, checksum),
              rr_crc32(0, blob + RR_CHECKSUM_FROM, (uint32_t)(r->size - RR_CHECKSUM_FROM)), 1);
    }
    *size = total;
    return img;
}

/* The board program: --program, else beside rrbake (install, then build tree). */
static char *find_program(const char *board, char *looked, size_t cap)
{
    char exe[4096], *slash, path[4096 + 256];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    static const char *const rel[] = {"../lib/romroom/%s/rr-emulate.elf", "../%s/rr-emulate.elf"};
    size_t i, at = 0;
    looked[0] = 0;
    if (n <= 0)
        return NULL;
    exe[n] = 0;
    if (!(slash = strrchr(exe, '/')))
        return NULL;
    slash[1] = 0;
    for (i = 0; i < 2; i++) {
        char tail[256];
        snprintf(tail, sizeof tail, rel[i], board);
        snprintf(path, sizeof path, "%s%s", exe, tail);
        if (access(path, R_OK) == 0)
            return rrb_xstrdup(path);
        at += (size_t)snprintf(looked + at, at < cap ? cap - at : 0, "%s%s", i ? " and " : "",
                               path);
        if (at >= cap)
            at = cap - 1;
    }
    return NULL;
}

/* s in single quotes for sh; for_qemu: commas doubled (QEMU's option lists). */
static void quote(rrb_buf *b, const char *s, int for_qemu)
{
    rrb_buf_put(b, "'", 1);
    for (; *s; s++) {
        if (*s == '\'')
            rrb_buf_put(b, "'\\''", 4);
        else if (*s == ',' && for_qemu)
            rrb_buf_put(b, ",,", 2);
        else
            rrb_buf_put(b, s, 1);
    }
    rrb_buf_put(b, "'", 1);
}

/* Run QEMU; its stdout in *out (NUL-terminated); the exit status (124: timeout,
 * 127: QEMU or timeout not found), -1 if it could not be started. */
static int run_qemu(const char *board, const char *prog, const char *image, uint32_t addr,
                    unsigned timeout, char **out)
{
    rrb_buf cmd, o;
    char head[512], buf[4096];
    size_t n;
    FILE *p;
    int st;
    memset(&cmd, 0, sizeof cmd), memset(&o, 0, sizeof o);
    const char *qemu, *args;
    if (!(qemu = rrb_emulate_qemu(board, &args)))
        return -1;
    snprintf(head, sizeof head, "timeout %u %s %s -kernel ", timeout, qemu, args);
    rrb_buf_put(&cmd, head, strlen(head));
    quote(&cmd, prog, 0);
    rrb_buf_put(&cmd, " -device loader,file=", 21);
    quote(&cmd, image, 1);
    snprintf(head, sizeof head, ",addr=0x%08x,force-raw=on < /dev/null", (unsigned)addr);
    rrb_buf_put(&cmd, head, strlen(head) + 1);
    fflush(stdout);
    p = popen((const char *)cmd.data, "r");
    rrb_buf_free(&cmd);
    if (!p)
        return -1;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        rrb_buf_put(&o, buf, n);
    rrb_buf_put(&o, "", 1);
    st = pclose(p);
    *out = (char *)o.data;
    return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The next line of *s (newline removed), or NULL at the end. */
static char *next_line(char **s)
{
    char *l = *s, *nl;
    if (!l || !*l)
        return NULL;
    nl = strchr(l, '\n');
    if (nl) {
        *nl = 0;
        *s = nl + 1;
    } else {
        *s = l + strlen(l);
    }
    if (*l && l[strlen(l) - 1] == '\r')
        l[strlen(l) - 1] = 0;
    return l;
}

/* Compare the output lines with an expected-answers file: the number of lines that differ. */
static int check_expect(const char *path, char **lines, const emu_q *qs, int nq)
{
    uint8_t *d;
    size_t n;
    char err[RRB_ERR_MAX], *s, *l;
    int i = 0, bad = 0;
    unsigned ln = 0;
    if (rrb_load_file(path, &d, &n, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return nq ? nq : 1;
    }
    s = rrb_xmalloc(n + 1);
    memcpy(s, d, n), s[n] = 0;
    free(d);
    {
        char *cur = s;
        while ((l = next_line(&cur)) != NULL) {
            ln++;
            if (!*l || *l == '#')
                continue;
            if (i >= nq) {
                fprintf(stderr, "%s:%u: expected no more answers (%d queries), found '%s'\n",
                        path, ln, nq, l);
                bad++;
                break;
            }
            if (strcmp(l, lines[i])) {
                fprintf(stderr, "%s:%u: expected '%s'\n%*s  found '%s' (query line %u)\n", path,
                        ln, l, (int)strlen(path), "", lines[i], qs[i].line);
                bad++;
            }
            i++;
        }
    }
    if (i < nq) {
        fprintf(stderr, "%s: expected %d answers, found %d\n", path, nq, i);
        bad += nq - i;
    }
    free(s);
    return bad;
}

typedef struct emu_args {
    const char *board, *room, *queries, *expect, *program;
    unsigned timeout;           /* seconds */
} emu_args;

/* The command line into *a: 0, or 2 after a usage message. */
static int parse_args(int argc, char **argv, emu_args *a)
{
    int i;
    memset(a, 0, sizeof *a);
    a->timeout = 120;
    for (i = 0; i < argc; i++) {
        const char *o = argv[i];
        int valued = !strcmp(o, "--board") || !strcmp(o, "--expect") ||
                     !strcmp(o, "--program") || !strcmp(o, "--timeout");
        if (valued && i + 1 >= argc) {
            fprintf(stderr, "rrbake emulate: %s needs a value\n%s", o, rrb_cli_usage_emulate);
            return 2;
        }
        if (!strcmp(o, "--board")) {
            a->board = argv[++i];
        } else if (!strcmp(o, "--expect")) {
            a->expect = argv[++i];
        } else if (!strcmp(o, "--program")) {
            a->program = argv[++i];
        } else if (!strcmp(o, "--timeout")) {
            char *end;
            long t = strtol(argv[++i], &end, 10);
            if (*end || t < 1 || t > 86400) {
                fprintf(stderr, "rrbake emulate: --timeout: expected seconds 1..86400, found "
                        "'%s'\n", argv[i]);
                return 2;
            }
            a->timeout = (unsigned)t;
        } else if (o[0] == '-' && o[1]) {
            fprintf(stderr, "rrbake emulate: unknown option '%s'\n%s", o, rrb_cli_usage_emulate);
            return 2;
        } else if (!a->room || !a->queries) {
            *(a->room ? &a->queries : &a->room) = o;
        } else {
            fprintf(stderr, "rrbake emulate: expected ROOM and QUERIES, found a third file "
                    "'%s'\n%s", o, rrb_cli_usage_emulate);
            return 2;
        }
    }
    if (!a->board || !a->room || !a->queries) {
        fprintf(stderr, "rrbake emulate: expected --board BOARD, ROOM and QUERIES\n%s",
                rrb_cli_usage_emulate);
        return 2;
    }
    return 0;
}

/* QEMU's output: nq answers, then "# end nq"; each answer kept in lines[]
 * as "QUERY => ANSWER". 0 when all of them and the end line are there. */
static int split_answers(char *out, const emu_q *qs, int nq, char **lines, int *got)
{
    char *l, *cur = out, endline[32];
    int ended = 0;
    snprintf(endline, sizeof endline, "# end %d", nq);
    *got = 0;
    while ((l = next_line(&cur)) != NULL && !(ended = !strcmp(l, endline))) {
        if (*got < nq) {
            lines[*got] = rrb_xmalloc(strlen(qs[*got].text) + strlen(l) + 5);
            sprintf(lines[*got], "%s => %s", qs[*got].text, l);
        }
        (*got)++;
    }
    return ended && *got == nq ? 0 : -1;
}

/* The board's answers into lines[] (nq of them): 0, 1 when the image does
 * not fit the board, 3 when the program could not run or failed. */
static int board_answers(const emu_args *a, const rrb_board *b, const rrb_cli_room *r,
                         const emu_q *qs, int nq, char **lines)
{
    uint32_t load, read, max;
    char looked[9000], tmp[4096], *prog, *out = NULL;
    const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    size_t size;
    uint8_t *img = make_image(r, qs, nq, b->big_endian, &size);
    int rc, fd, got;
    rre_input_place(a->board, &load, &read, &max);
    if (size > max) {
        fprintf(stderr, "%s: the blob and %d queries take %zu bytes; rr-emulate on %s reads at "
                "most %u (%zu too many)\n", a->room, nq, size, a->board, (unsigned)max,
                size - max);
        free(img);
        return 1;
    }
    prog = a->program ? rrb_xstrdup(a->program) : find_program(a->board, looked, sizeof looked);
    if (!prog || access(prog, R_OK)) {
        fprintf(stderr, "rrbake emulate: no board program for %s: %s not found (build it "
                "with make, or install romroom: make install)\n", a->board,
                prog ? prog : looked);
        free(prog), free(img);
        return 3;
    }
    snprintf(tmp, sizeof tmp, "%s/rrbake-emulate-XXXXXX", dir);
    if ((fd = mkstemp(tmp)) < 0 || write(fd, img, size) != (ssize_t)size || close(fd)) {
        fprintf(stderr, "rrbake emulate: cannot write the input image %s: %s\n", tmp,
                strerror(errno));
        free(prog), free(img);
        return 3;
    }
    free(img);
    rc = run_qemu(a->board, prog, tmp, load, a->timeout, &out);
    unlink(tmp);
    free(prog);
    if (!out)
        out = rrb_xstrdup("");
    {
        char *raw = rrb_xstrdup(out);   /* out is cut into lines */
        int whole = split_answers(out, qs, nq, lines, &got) == 0;
        if (rc != 0 || !whole) {
            size_t len = strlen(raw);
            fprintf(stderr, "rrbake emulate: the board program on %s %s after %d of %d "
                    "answers\n", a->board, rc == 124 ? "timed out" : rc == 127 ? "could not "
                    "start (is QEMU installed?)" : rc ? "failed" : "ended early",
                    got < nq ? got : nq, nq);
            if (rc != 0 && rc != 124 && rc != 127)   /* the end of what it printed */
                fprintf(stderr, "rrbake emulate: exit status %d%s%s", rc,
                        len ? "; it printed:\n" : "\n", raw + (len > 2000 ? len - 2000 : 0));
        }
        free(raw);
        free(out);
        return rc != 0 || !whole ? 3 : 0;
    }
}

/* Print the answers, name every one that differs from the host's or from
 * the expected file; 0 when none does, else 1. */
static int compare(const emu_args *a, const emu_q *qs, int nq, char **lines)
{
    int i, differ = 0, bad;
    char n[32];
    for (i = 0; i < nq; i++) {
        const char *ans = lines[i] + strlen(qs[i].text) + 4;
        printf("%s\n", lines[i]);
        if (strcmp(ans, qs[i].host)) {
            fprintf(stderr, "%s:%u: %s answered '%s', the host '%s'\n", a->queries, qs[i].line,
                    a->board, ans, qs[i].host);
            differ++;
        }
    }
    fflush(stdout);
    bad = a->expect ? check_expect(a->expect, lines, qs, nq) : 0;
    snprintf(n, sizeof n, "%d", differ);
    fprintf(stderr, "emulate: %d quer%s on %s: %s%s%s\n", nq, nq == 1 ? "y" : "ies", a->board,
            differ ? n : "every answer equal to the host's",
            differ ? " answers differ from the host's" : "",
            !a->expect ? "" : bad ? ", and differ from the expected answers" :
            ", and to the expected answers");
    return differ || bad ? 1 : 0;
}

int rrb_cli_emulate(int argc, char **argv)
{
    emu_args a;
    const rrb_board *b;
    uint32_t load, read, max;
    rrb_cli_room r;
    emu_q *qs = NULL;
    char err[RRB_ERR_MAX], **lines;
    int i, nq, status;
    if (parse_args(argc, argv, &a))
        return 2;
    if (!(b = rrb_board_by_name(a.board)) || rre_input_place(a.board, &load, &read, &max)) {
        fprintf(stderr, "rrbake emulate: expected a QEMU board (mps2-an385, versatilepb, "
                "malta-be, malta-le, microbit), found '%s'%s\n", a.board,
                b ? " (on the host, rrbake query answers directly)" : "");
        return 2;
    }
    if (rrb_cli_open(a.room, &r, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    nq = load_queries(a.queries, &r.room, &qs);
    if (nq < 0) {
        rrb_cli_close(&r);
        return 2;
    }
    lines = rrb_xcalloc((size_t)nq, sizeof *lines);
    status = board_answers(&a, b, &r, qs, nq, lines);
    if (status == 0)
        status = compare(&a, qs, nq, lines);
    for (i = 0; i < nq; i++)
        free(lines[i]);
    free(lines);
    free_queries(qs, nq);
    rrb_cli_close(&r);
    return status;
}
