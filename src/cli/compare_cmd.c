/* climb compare OLD.json NEW.json [--threshold PCT] [--force]: two reports' rows side by side, nvbench_compare's
 * way: each row matched by workload, rung, type, shape and options, its change in median time, and whether that
 * change exceeds the two runs' noise. Exit 1 when a rung got slower beyond the threshold and the noise, so a CI job
 * or a user can gate on it. No GPU needed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report_read.h"

static const char *const COMPARE_USAGE =
    "usage: climb compare OLD.json NEW.json [--threshold PCT] [--force]\n"
    "\n"
    "Compares two reports of climb bench (or tune, or a sweep), row by row: rows are matched by workload, rung, type,\n"
    "shape and options (an input file by its name, not its folder). For each pair: the old and new median, the\n"
    "change in %, old / new (above 1: the new is faster), and a verdict: SLOW or FAST when the change is beyond\n"
    "both the threshold (default 5%) and the two runs' noise (the larger relative standard deviation of their\n"
    "samples), else SAME. Rows in only one file are listed. Reports of different GPUs or timing modes (cold, batch)\n"
    "are refused unless --force, which compares them anyway, says so, and gives the ratios between them.\n"
    "\n"
    "Exit status: 0 no row got slower; 1 a row got slower (SLOW), or a file could not be read as a report;\n"
    "2 bad usage, or reports that cannot be compared without --force.\n";

typedef struct {
    const climb_json *row;
    char key[700];
    int used;
} cmp_row;

typedef struct {
    climb_report_file f;
    cmp_row *rows;
    int n;
} cmp_report;

/* Reads a report: 0, or -1 after saying why. */
static int load_report(const char *path, cmp_report *r)
{
    memset(r, 0, sizeof *r);
    char err[600];
    if (climb_report_file_read(path, &r->f, err, sizeof err) != CLIMB_REPORT_OK) {
        fprintf(stderr, "climb: compare: %s\n", err);
        return -1;
    }
    r->rows = calloc((size_t)(r->f.results->n ? r->f.results->n : 1), sizeof *r->rows);
    if (!r->rows) {
        fprintf(stderr, "climb: compare: out of host memory\n");
        return -1;
    }
    for (int i = 0; i < r->f.results->n; i++) {
        cmp_row *c = &r->rows[r->n++];
        c->row = &r->f.results->items[i];
        climb_row_key(c->row, 1, c->key, sizeof c->key);
    }
    return 0;
}

static void free_report(cmp_report *r)
{
    climb_report_file_free(&r->f);
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
    const int same_gpu = climb_same_text(old.f.gpu, new_.f.gpu),
              same_timing = climb_same_text(old.f.timing, new_.f.timing);
    if ((!same_gpu || !same_timing) && !force) {
        fprintf(stderr, "climb: compare: the reports are of %s (%s timing) and %s (%s timing): %s; --force compares "
                        "them anyway\n",
                old.f.gpu ? old.f.gpu : "an unnamed GPU", old.f.timing ? old.f.timing : "unknown",
                new_.f.gpu ? new_.f.gpu : "an unnamed GPU", new_.f.timing ? new_.f.timing : "unknown",
                !same_gpu ? "different GPUs" : "different timing modes");
        free_report(&old);
        free_report(&new_);
        return EXIT_USAGE;
    }
    printf("climb compare: old %s (%s, %s timing, commit %.7s), new %s (%s, %s timing, commit %.7s); threshold %g%%\n",
           files[0], old.f.gpu ? old.f.gpu : "?", old.f.timing ? old.f.timing : "?", old.f.commit ? old.f.commit : "?", files[1],
           new_.f.gpu ? new_.f.gpu : "?", new_.f.timing ? new_.f.timing : "?", new_.f.commit ? new_.f.commit : "?", threshold);
    if (!same_gpu || !same_timing)
        printf("forced: %s; the changes and ratios below (old / new: above 1, the new is faster) compare them, they are not regressions\n",
               !same_gpu ? "different GPUs" : "different timing modes");
    printf("\n| row | old µs | new µs | change | old / new | noise old / new | verdict |\n|---|--:|--:|--:|--:|--:|---|\n");
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
        const char *sa = climb_jstr(a, "status"), *sb = climb_jstr(b, "status");
        const double ta = climb_jnum(a, "median_us"), tb = climb_jnum(b, "median_us");
        if (!climb_same_text(sa, "ok") || !climb_same_text(sb, "ok") || !(ta > 0) || !(tb > 0)) {
            printf("| %s | %s | %s | | | | not compared |\n", name,
                   climb_same_text(sa, "ok") ? "ok" : sa ? sa : "?", climb_same_text(sb, "ok") ? "ok" : sb ? sb : "?");
            other++;
            continue;
        }
        const double na = climb_jnum(a, "noise_pct"), nb = climb_jnum(b, "noise_pct");
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
        printf("| %s | %.2f | %.2f | %+.1f%% | %.3f× | %.1f%% / %.1f%% | %s |\n", name, ta, tb, change, ta / tb, na, nb,
               verdict);
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
