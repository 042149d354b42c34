#include "wisdom.h"

#include <errno.h>
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/build_info.h"
#include "climb_occupancy.h"
#include "../io/json.h"
#include "../io/text.h"

int climb_wisdom_warns(climb_wisdom_outcome o)
{
    return o == CLIMB_WISDOM_FOREIGN || o == CLIMB_WISDOM_STALE || o == CLIMB_WISDOM_CORRUPT || o == CLIMB_WISDOM_MISSING;
}

int climb_wisdom_default_path(char *buf, size_t len)
{
    const char *w = getenv("CLIMB_WISDOM");
    if (w && *w)
        return snprintf(buf, len, "%s", w) < (int)len ? 0 : -1;
    const char *x = getenv("XDG_CONFIG_HOME");
    if (x && *x == '/') /* the XDG spec: a relative XDG_CONFIG_HOME is invalid and ignored */
        return snprintf(buf, len, "%s/climb/wisdom.json", x) < (int)len ? 0 : -1;
    const char *h = getenv("HOME");
    if (h && *h)
        return snprintf(buf, len, "%s/.config/climb/wisdom.json", h) < (int)len ? 0 : -1;
    return -1;
}

/* Where a path that is a symbolic link leads: "" when it is not a link; its target (as written in the link) when
 * it is one whose target does not exist. 0 not a link or a link to something that exists; 1 a dangling link. */
static int dangling_link(const char *path, char *target, size_t len)
{
    struct stat st;
    target[0] = '\0';
    if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode) || stat(path, &st) == 0)
        return 0;
    ssize_t n = readlink(path, target, len - 1);
    target[n > 0 ? (size_t)n : 0] = '\0';
    return 1;
}

static const char *file_kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : S_ISCHR(m) || S_ISBLK(m)
                                                                                               ? "a device"
                                                                                               : "not a plain file";
}

/* Reads the whole file. 0; 1 if it does not exist (msg says so, a dangling link too); 2 if it is not a regular
 * file (a folder, a FIFO: refused before it is opened, as reading a FIFO blocks); -1 with msg on any other
 * failure. Exactly CLIMB_WISDOM_MAX_BYTES is allowed. */
static int read_file(const char *path, char **text, size_t *len, char *msg, size_t msglen)
{
    *text = NULL;
    struct stat st;
    if (stat(path, &st) != 0) {
        char target[1024];
        if (errno == ENOENT && dangling_link(path, target, sizeof target)) {
            snprintf(msg, msglen, "%s is a symbolic link to %s, which does not exist", path, target);
            return 1;
        }
        if (errno == ENOENT) {
            snprintf(msg, msglen, "no wisdom file at %s", path);
            return 1;
        }
        snprintf(msg, msglen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(msg, msglen, "%s: not a regular file (%s): name a wisdom file", path, file_kind(st.st_mode));
        return 2;
    }
    if (st.st_size > CLIMB_WISDOM_MAX_BYTES) {
        snprintf(msg, msglen, "%s: larger than %d bytes: not a wisdom file", path, CLIMB_WISDOM_MAX_BYTES);
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, msglen, "%s: cannot read: %s", path, strerror(errno));
        return errno == ENOENT ? 1 : -1;
    }
    /* One byte more than allowed, to tell a file that grew from one that is exactly at the limit. */
    char *buf = malloc((size_t)CLIMB_WISDOM_MAX_BYTES + 2);
    size_t n = buf ? fread(buf, 1, (size_t)CLIMB_WISDOM_MAX_BYTES + 1, f) : 0;
    int err = !buf || ferror(f);
    fclose(f);
    if (err) {
        snprintf(msg, msglen, "%s: cannot read%s", path, buf ? "" : " (out of memory)");
        free(buf);
        return -1;
    }
    if (n > CLIMB_WISDOM_MAX_BYTES) {
        snprintf(msg, msglen, "%s: larger than %d bytes: not a wisdom file", path, CLIMB_WISDOM_MAX_BYTES);
        free(buf);
        return -1;
    }
    *text = buf;
    *len = n;
    return 0;
}

/* The checked shape of one entry. */
typedef struct {
    const char *workload, *gpu, *cc, *climb;
    const char *cls;            /* "class", "" when the entry has none */
    long driver;
    const climb_json *params;
    int line;
} entry;

static int entry_of(const char *path, const climb_json *e, entry *out, char *msg, size_t msglen)
{
    static const char *const strings[] = {"workload", "gpu", "cc", "climb"};
    const char **dst[] = {&out->workload, &out->gpu, &out->cc, &out->climb};
    out->line = e->line;
    if (e->type != CLIMB_JSON_OBJECT) {
        snprintf(msg, msglen, "%s:%d: an entry must be an object", path, e->line);
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        const climb_json *v = climb_json_get(e, strings[i]);
        if (!v || v->type != CLIMB_JSON_STRING) {
            snprintf(msg, msglen, "%s:%d: entry has no \"%s\" string", path, v ? v->line : e->line, strings[i]);
            return -1;
        }
        *dst[i] = v->string;
    }
    const climb_json *d = climb_json_get(e, "driver");
    if (!climb_json_int(d, 0, 1000000000L, &out->driver)) {
        snprintf(msg, msglen, "%s:%d: entry's \"driver\" must be a version number such as 13000", path,
                 d ? d->line : e->line);
        return -1;
    }
    const climb_json *cl = climb_json_get(e, "class");
    if (cl && cl->type != CLIMB_JSON_STRING) {
        snprintf(msg, msglen, "%s:%d: entry's \"class\" must be a string such as \"radius=2\"", path, cl->line);
        return -1;
    }
    out->cls = cl ? cl->string : "";
    out->params = climb_json_get(e, "params");
    if (!out->params || out->params->type != CLIMB_JSON_OBJECT) {
        snprintf(msg, msglen, "%s:%d: entry has no \"params\" object", path, out->params ? out->params->line : e->line);
        return -1;
    }
    return 0;
}

static void cc_string(char *buf, size_t len, int major, int minor) { snprintf(buf, len, "%d.%d", major, minor); }

/* An entry's parameters as tn's values: exactly its parameters, each an integer, together a candidate on dev.
 * 0, or -1 with msg ("path:line: ..."; `lead` goes before the reason the values are not a candidate). */
static int entry_values(const char *path, const entry *e, const climb_tuning *tn, const climb_device_info *dev,
                        const char *lead, int *v, char *msg, size_t msglen)
{
    const climb_json *p = e->params;
    if (p->n != tn->n_params) {
        snprintf(msg, msglen, "%s:%d: %s wants %d parameters, the entry has %d", path, p->line, e->workload,
                 tn->n_params, p->n);
        return -1;
    }
    for (int k = 0; k < tn->n_params; k++) {
        const climb_json *pv = climb_json_get(p, tn->params[k].name);
        long x;
        if (!climb_json_int(pv, INT_MIN, INT_MAX, &x)) { /* every value a tunable can take (an int) */
            snprintf(msg, msglen, "%s:%d: parameter \"%s\" is %s", path, pv ? pv->line : p->line, tn->params[k].name,
                     pv ? "not an integer an int holds" : "missing");
            return -1;
        }
        v[k] = (int)x;
    }
    char whybuf[200];
    const char *why = climb_tuning_check(tn, dev, v, whybuf, sizeof whybuf);
    if (why) {
        snprintf(msg, msglen, "%s:%d: %s%s", path, p->line, lead, why);
        return -1;
    }
    return 0;
}

/* Parses and checks the file's outer shape. Returns the tree, or NULL with msg (corrupt). */
static climb_json *load_tree(const char *path, const char *text, size_t len, char *msg, size_t msglen)
{
    char err[160];
    climb_json *root = climb_json_parse(text, len, err, sizeof err);
    if (!root) {
        /* err is "line N: what" */
        snprintf(msg, msglen, "%s:%s", path, err + 5);
        return NULL;
    }
    const climb_json *fmt = climb_json_get(root, "format");
    const climb_json *ents = climb_json_get(root, "entries");
    if (root->type != CLIMB_JSON_OBJECT)
        snprintf(msg, msglen, "%s:%d: a wisdom file is one JSON object", path, root->line);
    else if (!fmt || fmt->type != CLIMB_JSON_STRING || strcmp(fmt->string, CLIMB_WISDOM_FORMAT) != 0)
        snprintf(msg, msglen, "%s:%d: \"format\" must be \"%s\"", path, fmt ? fmt->line : root->line, CLIMB_WISDOM_FORMAT);
    else if (!ents || ents->type != CLIMB_JSON_ARRAY)
        snprintf(msg, msglen, "%s:%d: \"entries\" must be an array", path, ents ? ents->line : root->line);
    else
        return root;
    climb_json_free(root);
    return NULL;
}

climb_wisdom_outcome climb_wisdom_lookup(const char *path, const char *workload, const climb_tuning *tn,
                                         const climb_wisdom_key *key, const climb_device_info *dev, int *values,
                                         char *msg, size_t msglen)
{
    char *text;
    size_t len;
    msg[0] = '\0';
    int r = read_file(path, &text, &len, msg, msglen);
    if (r == 1)
        return CLIMB_WISDOM_ABSENT;
    if (r != 0)
        return CLIMB_WISDOM_CORRUPT;
    climb_json *root = load_tree(path, text, len, msg, msglen);
    free(text);
    if (!root)
        return CLIMB_WISDOM_CORRUPT;
    const climb_json *ents = climb_json_get(root, "entries");
    char cc[16];
    cc_string(cc, sizeof cc, key->cc_major, key->cc_minor);
    climb_wisdom_outcome out = CLIMB_WISDOM_NO_ENTRY;
    if (key->cls && key->cls[0])
        snprintf(msg, msglen, "%s holds no wisdom for %s %s", path, workload, key->cls);
    else
        snprintf(msg, msglen, "%s holds no wisdom for %s", path, workload);
    for (int i = 0; i < ents->n; i++) {
        entry e;
        if (entry_of(path, &ents->items[i], &e, msg, msglen) != 0) {
            out = CLIMB_WISDOM_CORRUPT;
            break;
        }
        if (strcmp(e.workload, workload) != 0 || strcmp(e.cls, key->cls ? key->cls : "") != 0)
            continue; /* another workload, or another tuning class of this one */
        /* Strings from the file are quoted in printable ASCII only (an escape can hold a control character). */
        char gpu[256], ecc[32], eclimb[64];
        climb_printable(e.gpu, strlen(e.gpu), gpu, sizeof gpu);
        climb_printable(e.cc, strlen(e.cc), ecc, sizeof ecc);
        climb_printable(e.climb, strlen(e.climb), eclimb, sizeof eclimb);
        if (strcmp(e.gpu, key->gpu) != 0 || strcmp(e.cc, cc) != 0) {
            if (out == CLIMB_WISDOM_NO_ENTRY) {
                out = CLIMB_WISDOM_FOREIGN;
                snprintf(msg, msglen, "%s:%d: the %s wisdom is for %s (CC %s), not this %s (CC %s)", path, e.line,
                         workload, gpu, ecc, key->gpu, cc);
            }
            continue;
        }
        if (e.driver != key->driver || strcmp(e.climb, key->climb_version) != 0) {
            out = CLIMB_WISDOM_STALE;
            snprintf(msg, msglen, "%s:%d: the %s wisdom for this GPU is stale: tuned with driver %ld and climb %s, "
                     "running driver %d and climb %s (run climb tune %s again)", path, e.line, workload, e.driver,
                     eclimb, key->driver, key->climb_version, workload);
            continue;
        }
        /* The matching entry: exactly the workload's parameters, each an integer candidate. */
        int v[CLIMB_MAX_TUNABLES];
        char lead[120];
        snprintf(lead, sizeof lead, "the %s wisdom is not a valid candidate: ", workload);
        if (entry_values(path, &e, tn, dev, lead, v, msg, msglen) != 0) {
            out = CLIMB_WISDOM_CORRUPT;
            break;
        }
        memcpy(values, v, sizeof(int) * (size_t)tn->n_params);
        char desc[160];
        climb_tuning_format(tn, v, desc, sizeof desc);
        if (e.cls[0])
            snprintf(msg, msglen, "the wisdom file %s:%d (%s, for %s)", path, e.line, desc, key->cls);
        else
            snprintf(msg, msglen, "the wisdom file %s:%d (%s)", path, e.line, desc);
        out = CLIMB_WISDOM_USED;
        break;
    }
    climb_json_free(root);
    return out;
}

/* A device of compute capability cc as the occupancy calculator's table describes it (no GPU needed): enough for
 * the tuning policies' device rules. 0, or -1 when the calculator does not know cc. */
static int device_of_cc(const char *cc, climb_device_info *d)
{
    int major = 0, minor = 0;
    char tail;
    memset(d, 0, sizeof *d);
    if (sscanf(cc, "%d.%d%c", &major, &minor, &tail) != 2)
        return -1;
    const climb_occ_arch *a = climb_occ_arch_find(major, minor);
    if (!a)
        return -1;
    snprintf(d->name, sizeof d->name, "a CC %s device", cc);
    d->cc_major = major;
    d->cc_minor = minor;
    d->max_threads_per_sm = a->max_threads_per_sm;
    d->max_blocks_per_sm = a->max_blocks_per_sm;
    d->regs_per_sm = a->regs_per_sm;
    d->smem_per_sm = (size_t)a->smem_per_sm;
    d->smem_per_block_optin = (size_t)a->smem_per_block_optin;
    return 0;
}

int climb_wisdom_each(const char *path, void (*each)(const climb_wisdom_entry *e, void *ctx), void *ctx, char *msg,
                      size_t msglen)
{
    char *text;
    size_t len;
    msg[0] = '\0';
    int r = read_file(path, &text, &len, msg, msglen);
    if (r == 1)
        return 1;
    if (r != 0)
        return -1;
    climb_json *root = load_tree(path, text, len, msg, msglen);
    free(text);
    if (!root)
        return -1;
    const climb_json *ents = climb_json_get(root, "entries");
    /* The whole file's shape first: a malformed entry makes the file corrupt, as lookup sees it. */
    for (int i = 0; i < ents->n; i++) {
        entry e;
        if (entry_of(path, &ents->items[i], &e, msg, msglen) != 0) {
            climb_json_free(root);
            return -1;
        }
    }
    for (int i = 0; i < ents->n; i++) {
        entry e;
        entry_of(path, &ents->items[i], &e, msg, msglen);
        climb_wisdom_entry out;
        memset(&out, 0, sizeof out);
        out.line = e.line;
        climb_printable(e.workload, strlen(e.workload), out.workload, sizeof out.workload);
        climb_printable(e.gpu, strlen(e.gpu), out.gpu, sizeof out.gpu);
        climb_printable(e.cc, strlen(e.cc), out.cc, sizeof out.cc);
        climb_printable(e.climb, strlen(e.climb), out.climb, sizeof out.climb);
        climb_printable(e.cls, strlen(e.cls), out.cls, sizeof out.cls);
        out.driver = e.driver;
        const climb_json *t = climb_json_get(&ents->items[i], "tuned");
        if (t && t->type == CLIMB_JSON_STRING)
            climb_printable(t->string, strlen(t->string), out.tuned, sizeof out.tuned);
        const climb_json *sp = climb_json_get(&ents->items[i], "speedup_vs_defaults");
        out.speedup = sp && sp->type == CLIMB_JSON_NUMBER ? sp->number : NAN;
        size_t used = 0;
        for (int k = 0; k < e.params->n && used < sizeof out.params; k++) {
            char key[64];
            climb_printable(e.params->keys[k], strlen(e.params->keys[k]), key, sizeof key);
            const climb_json *pv = &e.params->items[k];
            int w = pv->type == CLIMB_JSON_NUMBER
                        ? snprintf(out.params + used, sizeof out.params - used, "%s%s=%g", k ? " " : "", key, pv->number)
                        : snprintf(out.params + used, sizeof out.params - used, "%s%s=?", k ? " " : "", key);
            if (w > 0)
                used += (size_t)w;
        }
        /* Each entry on its own: a workload of this climb, its parameters, candidates on a device of its CC. */
        const climb_workload *w = climb_find_workload(e.workload);
        climb_device_info dev;
        int v[CLIMB_MAX_TUNABLES];
        char lead[80];
        snprintf(lead, sizeof lead, "%s: ", out.workload);
        if (!w)
            snprintf(out.problem, sizeof out.problem, "%s:%d: no workload '%s' in this climb", path, e.line,
                     out.workload);
        else if (!w->tuning)
            snprintf(out.problem, sizeof out.problem, "%s:%d: %s has nothing to tune", path, e.line, out.workload);
        else if (device_of_cc(e.cc, &dev) != 0)
            snprintf(out.problem, sizeof out.problem, "%s:%d: the occupancy calculator does not know CC %s", path,
                     e.line, out.cc);
        else
            entry_values(path, &e, w->tuning, &dev, lead, v, out.problem, sizeof out.problem);
        each(&out, ctx);
    }
    climb_json_free(root);
    return 0;
}

climb_wisdom_outcome climb_wisdom_resolve(const char *path, const char *workload, const climb_tuning *tn,
                                          const climb_device_info *dev, const climb_tuning_key *example, int *values,
                                          char *msg, size_t msglen, char *line, size_t linelen)
{
    const char *source = climb_tuning_defaults(tn, dev, example, values);
    char file[4096], desc[160], cls[128] = "";
    const climb_workload *w = climb_find_workload(workload);
    if (w)
        climb_tuning_class(w, example, dev, cls, sizeof cls);
    climb_wisdom_outcome o = CLIMB_WISDOM_ABSENT;
    const int named = path != NULL;
    if (!path && climb_wisdom_default_path(file, sizeof file) == 0)
        path = file;
    if (path) {
        climb_wisdom_key key = {dev->name, dev->cc_major, dev->cc_minor, dev->driver_version, climb_build_version, cls};
        o = climb_wisdom_lookup(path, workload, tn, &key, dev, values, msg, msglen);
        if (o == CLIMB_WISDOM_ABSENT && named)
            o = CLIMB_WISDOM_MISSING; /* the user named it: its absence is worth a warning */
    } else {
        snprintf(msg, msglen, "no wisdom file (CLIMB_WISDOM, XDG_CONFIG_HOME and HOME are all unset)");
    }
    climb_tuning_format(tn, values, desc, sizeof desc);
    if (o == CLIMB_WISDOM_USED)
        snprintf(line, linelen, "%s", msg);
    else
        snprintf(line, linelen, "%s (%s)%s%s", source, desc, climb_wisdom_warns(o) ? "; wisdom not used: " : "; ", msg);
    return o;
}

/* mkdir -p of the folder that holds `path`. */
static int make_parent(const char *path, char *msg, size_t msglen)
{
    char dir[4096];
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir) {
        snprintf(msg, msglen, "%s: path too long", path);
        return -1;
    }
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = '\0';
    for (char *q = dir + 1; ; q++) {
        if (*q == '/' || *q == '\0') {
            char c = *q;
            *q = '\0';
            if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
                snprintf(msg, msglen, "cannot create folder %s: %s", dir, strerror(errno));
                return -1;
            }
            *q = c;
            if (c == '\0')
                break;
        }
    }
    return 0;
}

/* Rewrites the file with the entry for (workload, GPU, CC) replaced by values, or removed (values NULL). */
static int rewrite(const char *named, const char *workload, const climb_tuning *tn, const climb_wisdom_key *key,
                   const int *values, const char *tuned, double speedup, char *msg, size_t msglen)
{
    msg[0] = '\0';
    /* Through a symbolic link, the file it points to is rewritten (the link stays); a dangling link is refused. */
    char resolved[4096], target[1024];
    const char *path = named;
    if (dangling_link(named, target, sizeof target)) {
        snprintf(msg, msglen, "%s is a symbolic link to %s, which does not exist: not written (create the file or "
                 "name another)", named, target);
        return -1;
    }
    struct stat lst;
    if (lstat(named, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        if (!realpath(named, resolved)) {
            snprintf(msg, msglen, "%s: cannot follow the symbolic link: %s", named, strerror(errno));
            return -1;
        }
        path = resolved;
    }
    char cc[16];
    cc_string(cc, sizeof cc, key->cc_major, key->cc_minor);
    char *text = NULL;
    size_t len = 0;
    climb_json *root = NULL;
    char note[600] = "";
    int r = read_file(path, &text, &len, note, sizeof note);
    if (r == 2) {
        snprintf(msg, msglen, "%s; not written", note); /* a folder or a FIFO is never moved aside or replaced */
        return -1;
    }
    if (r == 1 && !values)
        return 0; /* nothing to remove */
    if (r == 0) {
        root = load_tree(path, text, len, note, sizeof note);
        for (int i = 0; root && i < climb_json_get(root, "entries")->n; i++) {
            entry e;
            if (entry_of(path, &climb_json_get(root, "entries")->items[i], &e, note, sizeof note) != 0) {
                climb_json_free(root);
                root = NULL;
            }
        }
    }
    free(text);
    if (r != 1 && !root) {
        /* Unreadable or corrupt: keep it beside, start afresh. */
        char bad[4200];
        snprintf(bad, sizeof bad, "%s.bad", path);
        if (rename(path, bad) != 0) {
            snprintf(msg, msglen, "%s; and it cannot be moved aside to %s: %s", note, bad, strerror(errno));
            return -1;
        }
        snprintf(msg, msglen, "%s; moved it to %s and started a new file", note, bad);
    }
    if (make_parent(path, msg, msglen) != 0) {
        climb_json_free(root);
        return -1;
    }
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(msg, msglen, "cannot write %s: %s", tmp, strerror(errno));
        climb_json_free(root);
        return -1;
    }
    fprintf(f, "{\n  \"format\": \"%s\",\n  \"entries\": [", CLIMB_WISDOM_FORMAT);
    int n = 0;
    const climb_json *ents = root ? climb_json_get(root, "entries") : NULL;
    for (int i = 0; ents && i < ents->n; i++) {
        entry e;
        entry_of(path, &ents->items[i], &e, note, sizeof note);
        if (strcmp(e.workload, workload) == 0 && strcmp(e.gpu, key->gpu) == 0 && strcmp(e.cc, cc) == 0 &&
            strcmp(e.cls, key->cls ? key->cls : "") == 0)
            continue; /* replaced below */
        fprintf(f, "%s\n    ", n++ ? "," : "");
        climb_json_write(f, &ents->items[i], 4);
    }
    if (!values) {
        fputs("\n  ]\n}\n", f);
        goto close;
    }
    fprintf(f, "%s\n    {\n      \"workload\": ", n ? "," : "");
    climb_json_write_string(f, workload);
    fputs(",\n      \"gpu\": ", f);
    climb_json_write_string(f, key->gpu);
    if (key->cls && key->cls[0]) {
        fputs(",\n      \"class\": ", f);
        climb_json_write_string(f, key->cls);
    }
    fprintf(f, ",\n      \"cc\": \"%s\",\n      \"driver\": %d,\n      \"climb\": ", cc, key->driver);
    climb_json_write_string(f, key->climb_version);
    fputs(",\n      \"params\": {", f);
    for (int k = 0; k < tn->n_params; k++)
        fprintf(f, "%s\"%s\": %d", k ? ", " : "", tn->params[k].name, values[k]);
    fputs("},\n      \"tuned\": ", f);
    climb_json_write_string(f, tuned ? tuned : "");
    if (isfinite(speedup))
        fprintf(f, ",\n      \"speedup_vs_defaults\": %.4f", speedup);
    fputs("\n    }\n  ]\n}\n", f);
close:
    climb_json_free(root);
    int werr = ferror(f);
    if (fclose(f) != 0 || werr) {
        snprintf(msg, msglen, "error writing %s", tmp);
        remove(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        snprintf(msg, msglen, "cannot move %s to %s: %s", tmp, path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

int climb_wisdom_store(const char *path, const char *workload, const climb_tuning *tn, const climb_wisdom_key *key,
                       const int *values, const char *tuned, double speedup, char *msg, size_t msglen)
{
    return rewrite(path, workload, tn, key, values, tuned, speedup, msg, msglen);
}

int climb_wisdom_forget(const char *path, const char *workload, const climb_wisdom_key *key, char *msg, size_t msglen)
{
    return rewrite(path, workload, NULL, key, NULL, NULL, 0, msg, msglen);
}
