/* climb compare OLD.json NEW.json [--threshold PCT] [--force]: two reports' rows side by side, nvbench_compare's
 * way: each row matched by workload, rung, type, shape and options, its change in median time, and whether that
 * change exceeds the two runs' noise. Exit 1 when a rung got slower beyond the threshold and the noise, so a CI job
 * or a user can gate on it. No GPU needed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../io/json.h"
#include "../io/text.h"

static const char *const COMPARE_USAGE =
    "usage: climb compare OLD.json NEW.json [--threshold PCT] [--force]\n"
    "\n"
    "Compares two reports of climb bench (or tune, or a sweep), row by row: rows are matched by workload, rung, type,\n"
    "shape and options (an input file by its name, not its folder). For each pair: the old and new median, the\n"
    "change in %, and a verdict: SLOW or FAST when the change is beyond both the threshold (default 5%) and the two\n"
    "runs' noise (the larger relative standard deviation of their samples), else SAME. Rows in only one file are\n"
    "listed. Reports of different GPUs or timing modes (cold, batch) are refused unless --force, which compares them\n"
    "anyway and says so.\n"
    "\n"
    "Exit status: 0 no row got slower; 1 a row got slower (SLOW), or a file could not be read as a report;\n"
    "2 bad usage, or reports that cannot be compared without --force.\n";

typedef struct {
    const climb_json *row;
    char key[700];
    int used;
} cmp_row;

typedef struct {
    climb_json *root;
    const climb_json *results;
    const char *gpu, *timing, *commit;
    cmp_row *rows;
    int n;
} cmp_report;

static const char *str_of(const climb_json *o, const char *key)
{
    const climb_json *v = climb_json_get(o, key);
    return v && v->type == CLIMB_JSON_STRING ? v->string : NULL;
}

static double num_of(const climb_json *o, const char *key)
{
    const climb_json *v = climb_json_get(o, key);
    return v && v->type == CLIMB_JSON_NUMBER ? v->number : NAN;
}

/* "name=value ..." of a row's options, in the file's order, paths by their last part. */
static void options_text(const climb_json *opts, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    if (!opts || opts->type != CLIMB_JSON_OBJECT)
        return;
    for (int i = 0; i < opts->n && used < len; i++) {
        const climb_json *v = &opts->items[i];
        char val[200];
        if (v->type == CLIMB_JSON_STRING)
            snprintf(val, sizeof val, "%s", climb_base_name(v->string)); /* a file by its name */
        else if (v->type == CLIMB_JSON_NUMBER)
            snprintf(val, sizeof val, "%.17g", v->number);
        else if (v->type == CLIMB_JSON_BOOL)
            snprintf(val, sizeof val, "%s", v->number != 0 ? "true" : "false");
        else
            snprintf(val, sizeof val, "null");
        if (v->type == CLIMB_JSON_STRING && !val[0])
            continue; /* an unset file option */
        used += (size_t)snprintf(out + used, len - used, "%s%s=%s", used ? " " : "", opts->keys[i], val);
    }
}

/* Reads a report: 0, or -1 after saying why. */
static int load_report(const char *path, cmp_report *r)
{
    memset(r, 0, sizeof *r);
    char err[400];
    size_t len = 0;
    unsigned char *text = NULL;
    if (climb_read_file(path, (size_t)1 << 30, "report", &text, &len, err, sizeof err) != 0) {
        fprintf(stderr, "climb: compare: %s\n", err);
        return -1;
    }
    r->root = climb_json_parse((const char *)text, len, err, sizeof err);
    free(text);
    if (!r->root) {
        fprintf(stderr, "climb: compare: %s:%s\n", path, err);
        return -1;
    }
    const char *tool = str_of(r->root, "tool");
    r->results = climb_json_get(r->root, "results");
    const climb_json *dev = climb_json_get(r->root, "device");
    if (!tool || strcmp(tool, "climb") != 0 || !r->results || r->results->type != CLIMB_JSON_ARRAY) {
        fprintf(stderr, "climb: compare: %s: not a climb report (no \"tool\": \"climb\" with \"results\")\n", path);
        return -1;
    }
    r->gpu = dev ? str_of(dev, "name") : NULL;
    r->timing = str_of(r->root, "timing");
    r->commit = str_of(r->root, "git_commit");
    r->rows = calloc((size_t)(r->results->n ? r->results->n : 1), sizeof *r->rows);
    if (!r->rows) {
        fprintf(stderr, "climb: compare: out of host memory\n");
        return -1;
    }
    for (int i = 0; i < r->results->n; i++) {
        const climb_json *row = &r->results->items[i];
        const char *w = str_of(row, "workload"), *rung = str_of(row, "rung"), *type = str_of(row, "type"),
                   *shape = str_of(row, "shape_label");
        if (row->type != CLIMB_JSON_OBJECT || !w || !rung) {
            fprintf(stderr, "climb: compare: %s:%d: a result without workload and rung\n", path, row->line);
            return -1;
        }
        char opts[500];
        options_text(climb_json_get(row, "options"), opts, sizeof opts);
        cmp_row *c = &r->rows[r->n++];
        c->row = row;
        snprintf(c->key, sizeof c->key, "%s|%s|%s|%s%s%s", w, rung, type ? type : "", shape ? shape : "",
                 opts[0] ? "|" : "", opts);
    }
    return 0;
}

static void free_report(cmp_report *r)
{
    climb_json_free(r->root);
    free(r->rows);
}

static int find_row(const cmp_report *r, const char *key)
{
    for (int i = 0; i < r->n; i++)
        if (!r->rows[i].used && strcmp(r->rows[i].key, key) == 0)
            return i;
    return -1;
}

/* "reduce|rung|f32|2^22|a=1" shown as "reduce rung f32 2^22 a=1". */
static void shown_key(const char *key, char *out, size_t len)
{
    snprintf(out, len, "%s", key);
    for (char *p = out; *p; p++)
        if (*p == '|')
            *p = ' ';
}

static int same_text(const char *a, const char *b) { return a && b ? strcmp(a, b) == 0 : a == b; }

int cmd_compare(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL};
    int n_files = 0, force = 0;
    double threshold = 5.0;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(COMPARE_USAGE, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--force") == 0) {
            force = 1;
        } else if (strcmp(argv[i], "--threshold") == 0) {
            char *end = NULL;
            if (i + 1 >= argc)
                return usage_error(COMPARE_USAGE, "compare: --threshold needs a percentage%s", "");
            threshold = strtod(argv[++i], &end);
            if (end == argv[i] || *end != '\0' || !(threshold >= 0 && threshold <= 1000))
                return usage_error(COMPARE_USAGE, "compare: --threshold '%s': a percentage from 0 to 1000", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return usage_error(COMPARE_USAGE, "compare: unknown option '%s'", argv[i]);
        } else if (n_files < 2) {
            files[n_files++] = argv[i];
        } else {
            return usage_error(COMPARE_USAGE, "compare: one old and one new report, not '%s' too", argv[i]);
        }
    }
    if (n_files != 2)
        return usage_error(COMPARE_USAGE, "compare: name the old and the new report%s", "");
    cmp_report old, new_;
    if (load_report(files[0], &old) != 0) {
        free_report(&old);
        return EXIT_FAILED;
    }
    if (load_report(files[1], &new_) != 0) {
        free_report(&old);
        free_report(&new_);
        return EXIT_FAILED;
    }
    const int same_gpu = same_text(old.gpu, new_.gpu), same_timing = same_text(old.timing, new_.timing);
    if ((!same_gpu || !same_timing) && !force) {
        fprintf(stderr, "climb: compare: the reports are of %s (%s timing) and %s (%s timing): %s; --force compares "
                        "them anyway\n",
                old.gpu ? old.gpu : "an unnamed GPU", old.timing ? old.timing : "unknown",
                new_.gpu ? new_.gpu : "an unnamed GPU", new_.timing ? new_.timing : "unknown",
                !same_gpu ? "different GPUs" : "different timing modes");
        free_report(&old);
        free_report(&new_);
        return EXIT_USAGE;
    }
    printf("climb compare: old %s (%s, %s timing, commit %.7s), new %s (%s, %s timing, commit %.7s); threshold %g%%\n",
           files[0], old.gpu ? old.gpu : "?", old.timing ? old.timing : "?", old.commit ? old.commit : "?", files[1],
           new_.gpu ? new_.gpu : "?", new_.timing ? new_.timing : "?", new_.commit ? new_.commit : "?", threshold);
    if (!same_gpu || !same_timing)
        printf("forced: %s; the changes below are ratios between them, not regressions\n",
               !same_gpu ? "different GPUs" : "different timing modes");
    printf("\n| row | old µs | new µs | change | noise old / new | verdict |\n|---|--:|--:|--:|--:|---|\n");
    int slow = 0, fast = 0, same = 0, other = 0;
    for (int i = 0; i < old.n; i++) {
        cmp_row *o = &old.rows[i];
        const int j = find_row(&new_, o->key);
        if (j < 0)
            continue;
        o->used = 1;
        new_.rows[j].used = 1;
        const climb_json *a = o->row, *b = new_.rows[j].row;
        char name[700];
        shown_key(o->key, name, sizeof name);
        const char *sa = str_of(a, "status"), *sb = str_of(b, "status");
        const double ta = num_of(a, "median_us"), tb = num_of(b, "median_us");
        if (!same_text(sa, "ok") || !same_text(sb, "ok") || !(ta > 0) || !(tb > 0)) {
            printf("| %s | %s | %s | | | not compared |\n", name, same_text(sa, "ok") ? "ok" : sa ? sa : "?",
                   same_text(sb, "ok") ? "ok" : sb ? sb : "?");
            other++;
            continue;
        }
        const double na = num_of(a, "noise_pct"), nb = num_of(b, "noise_pct");
        const double noise = fmax(isnan(na) ? 0 : na, isnan(nb) ? 0 : nb);
        const double change = 100.0 * (tb - ta) / ta;
        const char *verdict = "SAME";
        if (same_gpu && same_timing && fabs(change) > threshold && fabs(change) > noise) {
            verdict = change > 0 ? "SLOW" : "FAST";
            slow += change > 0;
            fast += change < 0;
        } else {
            same++;
        }
        printf("| %s | %.2f | %.2f | %+.1f%% | %.1f%% / %.1f%% | %s |\n", name, ta, tb, change, na, nb, verdict);
    }
    int only_old = 0, only_new = 0;
    for (int k = 0; k < 2; k++) {
        const cmp_report *r = k == 0 ? &old : &new_;
        for (int i = 0; i < r->n; i++)
            if (!r->rows[i].used) {
                char name[700];
                shown_key(r->rows[i].key, name, sizeof name);
                printf("only in the %s report: %s\n", k == 0 ? "old" : "new", name);
                if (k == 0)
                    only_old++;
                else
                    only_new++;
            }
    }
    printf("\n%d rows compared: %d slower, %d faster, %d the same (within %g%% or the noise), %d not compared; %d only "
           "in the old report, %d only in the new\n",
           slow + fast + same + other, slow, fast, same, threshold, other, only_old, only_new);
    free_report(&old);
    free_report(&new_);
    return slow > 0 ? EXIT_FAILED : 0;
}
