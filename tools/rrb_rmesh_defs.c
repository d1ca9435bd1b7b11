/* rrb_rmesh_defs.c - CBRE-EX custom entity definitions (JSON) for the RMesh
 * reader: a small JSON parser and the part of the definitions the file
 * layout depends on (class names, property names and types, in order).
 *
 * CBRE-EX keeps one class per file in its Entities folder:
 *   {"Name": "template", "Description": "...", "Sprite": "...",
 *    "UseModelRendering": true,
 *    "Properties": [{"Name": "file", "Type": "String", "SmartEditName": "File",
 *                    "DefaultValue": "", "HelpText": "..."}, ...]}
 * It reads them with Newtonsoft.Json (keys match case-insensitively, other
 * keys are ignored, comments are allowed) and then, per property, parses
 * "Type" as its VariableType enum (case-sensitive: Bool, Color255, Float,
 * Integer, String, Vector, Choices, or the enum's number). A property with
 * no name or an unknown type is skipped with a message, a class without a
 * name or with the name of an earlier one too. The exporter writes the
 * properties in that order, leaving out any named "position" (NOTES §3.7).
 * This reader does the same, so it decodes what the editor wrote; on top it
 * takes a file holding an array of such objects.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "rrb_rmesh.h"

/* ---- JSON values ---- */

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct jval {
    int kind;
    char *str;              /* J_STR (UTF-8, NUL-terminated; embedded NULs end it) */
    double num;             /* J_NUM; J_BOOL: 0 or 1 */
    size_t n;               /* J_ARR / J_OBJ: number of items */
    struct jval *items;     /* J_ARR / J_OBJ */
    char **keys;            /* J_OBJ: one key per item */
    unsigned line, col;     /* where the value starts (messages) */
} jval;

typedef struct jparser {
    const char *p, *end;
    const char *name;       /* file name for messages */
    unsigned line;
    const char *line_start;
    int failed;
    char *err;
    size_t errcap;
} jparser;

#define JSON_MAX_DEPTH 64   /* definitions nest 3 deep; deeper is not a definitions file */

static void jfree(jval *v)
{
    size_t i;
    for (i = 0; i < v->n; i++) {
        jfree(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    memset(v, 0, sizeof *v);
}

static unsigned col_of(const jparser *j)
{
    return (unsigned)(j->p - j->line_start) + 1;
}

/* What is at the cursor, for "found ...". */
static void found(const jparser *j, char *buf, size_t cap)
{
    size_t k, n = (size_t)(j->end - j->p);
    if (!n) {
        snprintf(buf, cap, "the end of the file");
        return;
    }
    for (k = 0; k < n && k < 12 && j->p[k] != '\n' && j->p[k] != '\r'; k++)
        ;
    snprintf(buf, cap, "'%.*s'", (int)k, j->p);
    for (k = 0; buf[k]; k++)
        if ((unsigned char)buf[k] < 0x20 || (unsigned char)buf[k] >= 0x7f)
            buf[k] = '?';
}

static int jfail(jparser *j, const char *expected)
{
    char f[32];
    if (j->failed)
        return -1;
    found(j, f, sizeof f);
    snprintf(j->err, j->errcap, "%s:%u:%u: expected %s, found %s", j->name, j->line, col_of(j),
             expected, f);
    j->failed = 1;
    return -1;
}

/* Blanks and comments (// to the end of the line, and block comments). */
static int skip_space(jparser *j)
{
    while (j->p < j->end) {
        char c = *j->p;
        if (c == '\n') {
            j->line++;
            j->line_start = ++j->p;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            j->p++;
        } else if (c == '/' && j->end - j->p >= 2 && j->p[1] == '/') {
            while (j->p < j->end && *j->p != '\n')
                j->p++;
        } else if (c == '/' && j->end - j->p >= 2 && j->p[1] == '*') {
            j->p += 2;
            while (j->p < j->end && !(*j->p == '*' && j->end - j->p >= 2 && j->p[1] == '/')) {
                if (*j->p == '\n') {
                    j->line++;
                    j->line_start = j->p + 1;
                }
                j->p++;
            }
            if (j->p >= j->end)
                return jfail(j, "the end of a comment (*/)");
            j->p += 2;
        } else {
            break;
        }
    }
    return 0;
}

static void put_utf8(char *out, size_t *o, unsigned long u)
{
    if (u < 0x80) {
        out[(*o)++] = (char)u;
    } else if (u < 0x800) {
        out[(*o)++] = (char)(0xc0 | (u >> 6));
        out[(*o)++] = (char)(0x80 | (u & 0x3f));
    } else if (u < 0x10000) {
        out[(*o)++] = (char)(0xe0 | (u >> 12));
        out[(*o)++] = (char)(0x80 | ((u >> 6) & 0x3f));
        out[(*o)++] = (char)(0x80 | (u & 0x3f));
    } else {
        out[(*o)++] = (char)(0xf0 | (u >> 18));
        out[(*o)++] = (char)(0x80 | ((u >> 12) & 0x3f));
        out[(*o)++] = (char)(0x80 | ((u >> 6) & 0x3f));
        out[(*o)++] = (char)(0x80 | (u & 0x3f));
    }
}

static int hex4(jparser *j, unsigned long *u)
{
    int k;
    *u = 0;
    for (k = 0; k < 4; k++, j->p++) {
        char c = j->p < j->end ? *j->p : 0;
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return jfail(j, "four hex digits after \\u");
        *u = *u << 4 | (unsigned long)d;
    }
    return 0;
}

/* The rest of a \uXXXX escape (the cursor after the 'u'), as UTF-8 into
 * out at *o: a surrogate pair joined, a lone surrogate as U+FFFD. */
static int u_escape(jparser *j, char *out, size_t *o)
{
    unsigned long u, lo;
    if (hex4(j, &u))
        return -1;
    if (u >= 0xd800 && u < 0xdc00 && j->end - j->p >= 6 && j->p[0] == '\\' &&
        j->p[1] == 'u') {   /* a surrogate pair */
        j->p += 2;
        if (hex4(j, &lo))
            return -1;
        u = lo >= 0xdc00 && lo < 0xe000 ? 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00)
                                        : 0xfffd;
    } else if (u >= 0xd800 && u < 0xe000) {
        u = 0xfffd;
    }
    put_utf8(out, o, u);
    return 0;
}

/* A string at the cursor (which is on the opening quote). The decoded text
 * is never longer than the source, plus room for UTF-8 of \u escapes. */
static char *parse_string(jparser *j)
{
    char *out = rrb_xmalloc((size_t)(j->end - j->p) + 4);
    size_t o = 0;
    j->p++;
    while (j->p < j->end && *j->p != '"') {
        unsigned char c = (unsigned char)*j->p;
        if (c < 0x20) {
            jfail(j, "a closing '\"' before the end of the line");
            free(out);
            return NULL;
        }
        if (c != '\\') {
            out[o++] = (char)c;
            j->p++;
            continue;
        }
        j->p++;
        c = j->p < j->end ? (unsigned char)*j->p : 0;
        j->p++;
        switch (c) {
        case '"': case '\\': case '/': out[o++] = (char)c; break;
        case 'b': out[o++] = '\b'; break;
        case 'f': out[o++] = '\f'; break;
        case 'n': out[o++] = '\n'; break;
        case 'r': out[o++] = '\r'; break;
        case 't': out[o++] = '\t'; break;
        case 'u':
            if (u_escape(j, out, &o)) {
                free(out);
                return NULL;
            }
            break;
        default:
            j->p -= 2;
            jfail(j, "an escape \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX");
            free(out);
            return NULL;
        }
    }
    if (j->p >= j->end) {
        jfail(j, "a closing '\"'");
        free(out);
        return NULL;
    }
    j->p++;
    out[o] = 0;
    {   /* give back the worst-case room */
        char *fit = realloc(out, o + 1);
        return fit ? fit : out;
    }
}

static int parse_value(jparser *j, jval *v, int depth);

static int parse_items(jparser *j, jval *v, int depth, int object)
{
    char close = object ? '}' : ']';
    size_t cap = 0;
    j->p++;
    if (skip_space(j))
        return -1;
    if (j->p < j->end && *j->p == close) {
        j->p++;
        return 0;
    }
    for (;;) {
        char *key = NULL;
        if (object) {
            if (skip_space(j))
                return -1;
            if (j->p >= j->end || *j->p != '"')
                return jfail(j, "a property name in double quotes");
            if (!(key = parse_string(j)))
                return -1;
            if (skip_space(j) || j->p >= j->end || *j->p != ':') {
                free(key);
                return jfail(j, "':' after the property name");
            }
            j->p++;
        }
        v->items = rrb_grow(v->items, &cap, v->n + 1, sizeof *v->items);
        if (object) {
            v->keys = realloc(v->keys, (v->n + 1) * sizeof *v->keys);
            if (!v->keys)
                abort();
            v->keys[v->n] = key;
        }
        memset(&v->items[v->n], 0, sizeof v->items[0]);
        v->n++;
        if (parse_value(j, &v->items[v->n - 1], depth + 1) || skip_space(j))
            return -1;
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == close) {
            j->p++;
            return 0;
        }
        return jfail(j, object ? "',' or '}'" : "',' or ']'");
    }
}

static int word(jparser *j, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(j->end - j->p) >= n && !memcmp(j->p, w, n)) {
        j->p += n;
        return 1;
    }
    return 0;
}

static int parse_value(jparser *j, jval *v, int depth)
{
    char *end;
    if (skip_space(j))
        return -1;
    v->line = j->line;
    v->col = col_of(j);
    if (depth > JSON_MAX_DEPTH)
        return jfail(j, "at most 64 nested arrays and objects");
    if (j->p >= j->end)
        return jfail(j, "a value");
    switch (*j->p) {
    case '{':
        v->kind = J_OBJ;
        return parse_items(j, v, depth, 1);
    case '[':
        v->kind = J_ARR;
        return parse_items(j, v, depth, 0);
    case '"':
        v->kind = J_STR;
        return (v->str = parse_string(j)) != NULL ? 0 : -1;
    default:
        break;
    }
    if (word(j, "true") || word(j, "false")) {
        v->kind = J_BOOL;
        v->num = j->p[-1] == 'e' && j->p[-2] == 'u';
        return 0;
    }
    if (word(j, "null")) {
        v->kind = J_NULL;
        return 0;
    }
    if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9')) {
        /* the text is NUL-terminated by the loader, so strtod stops in it */
        v->num = strtod(j->p, &end);
        if (end > j->p && end <= j->end) {
            v->kind = J_NUM;
            j->p = end;
            return 0;
        }
    }
    return jfail(j, "a JSON value (object, array, string, number, true, false or null)");
}

/* ---- definitions ---- */

/* The item of object o under key (case-insensitive, as Newtonsoft), or NULL. */
static const jval *member(const jval *o, const char *key)
{
    size_t i;
    for (i = 0; o->kind == J_OBJ && i < o->n; i++)
        if (!strcmp(o->keys[i], key))
            return &o->items[i];
    for (i = 0; o->kind == J_OBJ && i < o->n; i++)
        if (rrb_strieq(o->keys[i], key))
            return &o->items[i];
    return NULL;
}

/* "Type" as CBRE-EX's Enum.TryParse takes it: a member name (exact case)
 * or the enum's number. 0 if neither. */
static int parse_type(const jval *t)
{
    int k;
    char *end;
    long n;
    if (!t || (t->kind != J_STR && t->kind != J_NUM))
        return 0;
    if (t->kind == J_NUM)
        return t->num >= 1 && t->num < RRB_RM_NPTYPES && t->num == (int)t->num ? (int)t->num : 0;
    for (k = 1; k < RRB_RM_NPTYPES; k++)
        if (!strcmp(t->str, rrb_rm_ptype_names[k]))
            return k;
    n = strtol(t->str, &end, 10);
    return end != t->str && !*end && n >= 1 && n < RRB_RM_NPTYPES ? (int)n : 0;
}

static int def_fail(const char *file, const jval *v, char *err, size_t errcap, const char *what,
                    const char *found_what)
{
    snprintf(err, errcap, "%s:%u:%u: expected %s, found %s", file, v->line, v->col, what,
             found_what);
    return -1;
}

static const char *kind_name(const jval *v)
{
    static const char *const names[] = {"null", "true or false", "a number", "a string",
                                        "an array", "an object"};
    return v ? names[v->kind] : "nothing";
}

/* One class object. Returns 0 (added or skipped as CBRE-EX skips it), -1 error. */
static int add_class(rrb_rm_defs *d, const jval *o, const char *file, FILE *warn, char *err,
                     size_t errcap)
{
    const jval *name = member(o, "Name"), *props = member(o, "Properties");
    rrb_rm_classdef *c;
    size_t i;
    if (o->kind != J_OBJ)
        return def_fail(file, o, err, errcap, "an entity definition object", kind_name(o));
    if (!name || name->kind != J_STR || !name->str[0]) {
        if (warn)
            fprintf(warn, "%s:%u:%u: warning: entity definition without a \"Name\": skipped (as "
                    "CBRE-EX does)\n", file, o->line, o->col);
        return 0;
    }
    if (rrb_rm_defs_find(d, name->str, (uint32_t)strlen(name->str))) {
        if (warn)
            fprintf(warn, "%s:%u:%u: warning: entity class \"%s\" is defined already: this "
                    "definition is skipped (as CBRE-EX does)\n", file, name->line, name->col,
                    name->str);
        return 0;
    }
    if (!props || props->kind != J_ARR)
        return def_fail(file, props ? props : o, err, errcap,
                        "a \"Properties\" array (CBRE-EX cannot load a class without one)",
                        props ? kind_name(props) : "no \"Properties\"");
    d->cls = realloc(d->cls, (d->n + 1) * sizeof *d->cls);
    if (!d->cls)
        abort();
    c = &d->cls[d->n++];
    memset(c, 0, sizeof *c);
    c->name = rrb_xstrdup(name->str);
    c->file = rrb_xstrdup(file);
    c->props = rrb_xcalloc(props->n ? props->n : 1, sizeof *c->props);
    for (i = 0; i < props->n; i++) {
        const jval *p = &props->items[i], *pn = member(p, "Name"), *pt;
        int type;
        if (p->kind != J_OBJ)
            return def_fail(file, p, err, errcap, "a property object", kind_name(p));
        pt = member(p, "Type");
        if (!pn || pn->kind != J_STR || !pn->str[0]) {
            if (warn)
                fprintf(warn, "%s:%u:%u: warning: property without a \"Name\" in class \"%s\": "
                        "skipped (as CBRE-EX does; it writes nothing for it)\n", file, p->line,
                        p->col, c->name);
            continue;
        }
        if (!(type = parse_type(pt))) {
            if (warn)
                fprintf(warn, "%s:%u:%u: warning: property \"%s\" of class \"%s\" has type %s%s%s, "
                        "not one of Bool Color255 Float Integer String Vector Choices: skipped "
                        "(as CBRE-EX does; it writes nothing for it)\n", file, p->line, p->col,
                        pn->str, c->name, pt && pt->kind == J_STR ? "\"" : "",
                        pt && pt->kind == J_STR ? pt->str : kind_name(pt),
                        pt && pt->kind == J_STR ? "\"" : "");
            continue;
        }
        if (!strcmp(pn->str, "position"))
            continue;   /* the exporter writes the position itself, first */
        c->props[c->nprops].name = rrb_xstrdup(pn->str);
        c->props[c->nprops].type = type;
        c->nprops++;
    }
    return 0;
}

/* Parse text and add its classes to d. */
static int parse_into(const char *text, size_t len, const char *name, rrb_rm_defs *d, FILE *warn,
                      char *err, size_t errcap)
{
    jparser j;
    jval root;
    size_t i;
    int rc = 0;
    char *copy = rrb_xmalloc(len + 1);   /* NUL-terminated for strtod */
    memcpy(copy, text, len);
    copy[len] = 0;
    memset(&j, 0, sizeof j);
    memset(&root, 0, sizeof root);
    j.p = j.line_start = copy;
    j.end = copy + len;
    j.name = name;
    j.line = 1;
    j.err = err;
    j.errcap = errcap;
    if (len >= 3 && !memcmp(j.p, "\xef\xbb\xbf", 3))   /* UTF-8 byte order mark */
        j.p = j.line_start = copy + 3;
    if (parse_value(&j, &root, 0) || skip_space(&j) || (j.p < j.end && jfail(&j, "the end of the "
                                                                                  "file"))) {
        rc = -1;
    } else if (root.kind == J_ARR) {
        for (i = 0; i < root.n && !rc; i++)
            rc = add_class(d, &root.items[i], name, warn, err, errcap);
    } else if (root.kind == J_OBJ) {
        rc = add_class(d, &root, name, warn, err, errcap);
    } else {
        rc = def_fail(name, &root, err, errcap, "an entity definition object (or an array of "
                      "them)", kind_name(&root));
    }
    jfree(&root);
    free(copy);
    return rc;
}

int rrb_rm_defs_parse(const char *text, size_t len, const char *name, rrb_rm_defs *d, FILE *warn,
                      char *err, size_t errcap)
{
    memset(d, 0, sizeof *d);
    if (parse_into(text, len, name, d, warn, err, errcap)) {
        rrb_rm_defs_free(d);
        return -1;
    }
    return 0;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_one(const char *path, rrb_rm_defs *d, FILE *warn, char *err, size_t errcap)
{
    uint8_t *data;
    size_t size;
    int rc;
    if (rrb_load_file(path, &data, &size, err, errcap))
        return -1;
    rc = parse_into((const char *)data, size, path, d, warn, err, errcap);
    free(data);
    return rc;
}

int rrb_rm_defs_load(const char *path, rrb_rm_defs *d, FILE *warn, char *err, size_t errcap)
{
    DIR *dir;
    struct dirent *de;
    char **names = NULL, full[4096];
    size_t n = 0, i;
    int rc = 0;
    memset(d, 0, sizeof *d);
    if (!rrb_is_dir(path)) {
        rc = load_one(path, d, warn, err, errcap);
    } else if (!(dir = opendir(path))) {
        snprintf(err, errcap, "%s: cannot open the entity definitions folder", path);
        rc = -1;
    } else {
        while ((de = readdir(dir)) != NULL) {
            size_t len = strlen(de->d_name);
            if (len > 5 && rrb_strieq(de->d_name + len - 5, ".json")) {
                names = realloc(names, (n + 1) * sizeof *names);
                if (!names)
                    abort();
                names[n++] = rrb_xstrdup(de->d_name);
            }
        }
        closedir(dir);
        if (names)
            qsort(names, n, sizeof *names, cmp_name);
        if (!n) {
            snprintf(err, errcap, "%s: expected entity definitions (*.json files) in the folder, "
                     "found none", path);
            rc = -1;
        }
        for (i = 0; i < n; i++) {
            snprintf(full, sizeof full, "%s/%s", path, names[i]);
            if (!rc)
                rc = load_one(full, d, warn, err, errcap);
            free(names[i]);
        }
        free(names);
    }
    if (rc)
        rrb_rm_defs_free(d);
    return rc;
}

void rrb_rm_defs_free(rrb_rm_defs *d)
{
    uint32_t i, k;
    for (i = 0; i < d->n; i++) {
        for (k = 0; k < d->cls[i].nprops; k++)
            free(d->cls[i].props[k].name);
        free(d->cls[i].props);
        free(d->cls[i].name);
        free(d->cls[i].file);
    }
    free(d->cls);
    memset(d, 0, sizeof *d);
}

const rrb_rm_classdef *rrb_rm_defs_find(const rrb_rm_defs *d, const char *name, uint32_t len)
{
    uint32_t i;
    for (i = 0; d && i < d->n; i++)
        if (strlen(d->cls[i].name) == len && !memcmp(d->cls[i].name, name, len))
            return &d->cls[i];
    return NULL;
}
