#include "tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

void climb_tune_free(climb_tune_result *res)
{
    free(res->cands);
    res->cands = NULL;
    res->n_cands = 0;
}

static double ratio_to_defaults(const climb_tune_result *res, int k)
{
    if (k < 0 || res->defaults < 0 || !isfinite(res->cands[res->defaults].score))
        return NAN;
    return res->cands[res->defaults].score / res->cands[k].score;
}

double climb_tune_speedup(const climb_tune_result *res) { return ratio_to_defaults(res, res->winner); }
double climb_tune_fastest_speedup(const climb_tune_result *res) { return ratio_to_defaults(res, res->fastest); }

int climb_tune(const climb_workload *w, const climb_run_opts *o, climb_timer *t, const climb_device_info *dev,
               climb_tune_result *res)
{
    memset(res, 0, sizeof *res);
    res->w = w;
    res->winner = res->defaults = res->fastest = -1;
    const climb_tuning *tn = w->tuning;
    if (!tn) {
        fprintf(stderr, "climb: %s has nothing to tune\n", w->name);
        return -1;
    }
    /* Cases. */
    unsigned types = climb_select_types(w, o);
    const size_t *sizes = o->n_sizes ? o->sizes : w->bench_sizes;
    int n_sizes = o->n_sizes ? o->n_sizes : w->n_bench_sizes;
    for (int ti = 0; ti < CLIMB_NTYPES; ti++)
        for (int si = 0; si < n_sizes && (types & CLIMB_TYPE_BIT(ti)); si++) {
            if (res->n_cases == CLIMB_TUNE_MAX_CASES) {
                fprintf(stderr, "climb: tune takes at most %d type x size cases\n", CLIMB_TUNE_MAX_CASES);
                return -1;
            }
            res->types[res->n_cases] = (climb_dtype)ti;
            res->sizes[res->n_cases++] = sizes[si];
        }
    /* Candidates: every combination, the ones this device rejects kept with the reason. */
    long total = climb_tuning_count(tn);
    res->cands = calloc((size_t)total, sizeof *res->cands);
    if (!res->cands) {
        fprintf(stderr, "climb: out of host memory for %ld tuning candidates\n", total);
        return -1;
    }
    int defaults[CLIMB_MAX_TUNABLES];
    res->defaults_source = tn->defaults(dev, defaults);
    int runnable = 0;
    for (long i = 0; i < total; i++) {
        climb_tune_cand *cd = &res->cands[res->n_cands++];
        climb_tuning_values(tn, i, cd->values);
        cd->skipped = tn->rejects(dev, cd->values);
        cd->score = NAN;
        runnable += cd->skipped == NULL;
        if (!cd->skipped && memcmp(cd->values, defaults, sizeof(int) * (size_t)tn->n_params) == 0)
            res->defaults = (int)i;
    }
    int failures = 0, done = 0;
    for (int ci = 0; ci < res->n_cases; ci++) {
        climb_case_params p = {res->sizes[ci], res->types[ci], climb_case_seed(o->seed, res->types[ci], res->sizes[ci], 0),
                               0, dev};
        char lbl[32];
        climb_size_label(lbl, sizeof lbl, p.size);
        if (o->progress)
            fprintf(stderr, "[tune %s %s n=%s] preparing inputs and reference\n", w->name, climb_dtype_name(p.type), lbl);
        climb_case *c = NULL;
        if (w->create(&p, &c) != 0)
            return -1;
        res->bytes[ci] = w->bytes(c);
        const char *why = w->refuses(c, tn->rung);
        if (why) {
            fprintf(stderr, "climb: %s refuses the tuning case %s n=%s: %s\n", w->rung(tn->rung)->name,
                    climb_dtype_name(p.type), lbl, why);
            w->destroy(c);
            return -1;
        }
        for (int k = 0; k < res->n_cands; k++) {
            climb_tune_cand *cd = &res->cands[k];
            if (cd->skipped || cd->status != CLIMB_ROW_OK)
                continue;
            w->set_tuning(c, cd->values);
            char msg[300], desc[160];
            climb_tuning_format(tn, cd->values, desc, sizeof desc);
            int v = climb_measure_rung(w, c, tn->rung, t, &o->timing, &cd->t[ci], msg, sizeof msg);
            done++;
            if (v == 0 && o->progress)
                fprintf(stderr, "[tune %s %s n=%s] %d/%d %s: %.2f us\n", w->name, climb_dtype_name(p.type), lbl, done,
                        runnable * res->n_cases, desc, cd->t[ci].median_us);
            if (v != 0) {
                cd->status = v == 1 ? CLIMB_ROW_WRONG : CLIMB_ROW_ERROR;
                snprintf(cd->note, sizeof cd->note, "%s n=%s: %s", climb_dtype_name(p.type), lbl, msg);
                fprintf(stderr, "FAIL tune %s %s: %s\n", w->name, desc, cd->note);
                failures++;
                if (v < 0 && climb_context_broken()) {
                    fprintf(stderr, "climb: the CUDA context is no longer usable; stopping\n");
                    w->destroy(c);
                    return -1;
                }
            }
        }
        w->destroy(c);
    }
    /* Scores: each case's medians relative to that case's fastest, geometric mean over the cases. */
    double best[CLIMB_TUNE_MAX_CASES];
    for (int ci = 0; ci < res->n_cases; ci++) {
        best[ci] = INFINITY;
        for (int k = 0; k < res->n_cands; k++)
            if (!res->cands[k].skipped && res->cands[k].status == CLIMB_ROW_OK && res->cands[k].t[ci].median_us < best[ci])
                best[ci] = res->cands[k].t[ci].median_us;
    }
    for (int k = 0; k < res->n_cands; k++) {
        climb_tune_cand *cd = &res->cands[k];
        if (cd->skipped || cd->status != CLIMB_ROW_OK)
            continue;
        double lg = 0;
        for (int ci = 0; ci < res->n_cases; ci++)
            lg += log(cd->t[ci].median_us / best[ci]);
        cd->score = exp(lg / res->n_cases);
        if (res->fastest < 0 || cd->score < res->cands[res->fastest].score)
            res->fastest = k;
    }
    res->winner = res->fastest;
    if (res->defaults >= 0 && res->fastest >= 0 && isfinite(res->cands[res->defaults].score) &&
        res->cands[res->defaults].score <= res->cands[res->fastest].score * CLIMB_TUNE_TIE)
        res->winner = res->defaults;
    return failures;
}

/* ---- writers ---- */

static void values_json(FILE *f, const climb_tuning *tn, const int *v)
{
    fputc('{', f);
    for (int k = 0; k < tn->n_params; k++)
        fprintf(f, "%s\"%s\": %d", k ? ", " : "", tn->params[k].name, v[k]);
    fputc('}', f);
}

/* The values of candidate k, or null when there is none. */
static void cand_json(FILE *f, const climb_tune_result *r, int k)
{
    if (k >= 0)
        values_json(f, r->w->tuning, r->cands[k].values);
    else
        fputs("null", f);
}

static void num(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.6g", x);
    else
        fputs("null", f);
}

void climb_tune_json(const climb_report *rep, const climb_tune_result *const *res, int n, FILE *f)
{
    climb_report_json_head(rep, f);
    fputs("  \"tuning\": [", f);
    for (int i = 0; i < n; i++) {
        const climb_tune_result *r = res[i];
        const climb_tuning *tn = r->w->tuning;
        fprintf(f, "%s\n    {\"workload\": ", i ? "," : "");
        climb_json_write_string(f, r->w->name);
        fputs(", \"rung\": ", f);
        climb_json_write_string(f, r->w->rung(tn->rung)->name);
        fputs(",\n     \"params\": [", f);
        for (int k = 0; k < tn->n_params; k++) {
            fprintf(f, "%s{\"name\": \"%s\", \"meaning\": ", k ? ", " : "", tn->params[k].name);
            climb_json_write_string(f, tn->params[k].meaning);
            fputs(", \"candidates\": [", f);
            for (int j = 0; j < tn->params[k].n_values; j++)
                fprintf(f, "%s%d", j ? ", " : "", tn->params[k].values[j]);
            fputs("]}", f);
        }
        fputs("],\n     \"cases\": [", f);
        for (int c = 0; c < r->n_cases; c++) {
            fprintf(f, "%s{\"type\": \"%s\", \"size\": %zu, \"bytes\": ", c ? ", " : "", climb_dtype_name(r->types[c]),
                    r->sizes[c]);
            num(f, r->bytes[c]);
            fputc('}', f);
        }
        fputs("],\n     \"score\": \"geometric mean over the cases of median time / the fastest median of that case\",", f);
        fputs("\n     \"defaults\": ", f);
        cand_json(f, r, r->defaults);
        fputs(", \"defaults_source\": ", f);
        climb_json_write_string(f, r->defaults_source ? r->defaults_source : "");
        fputs(",\n     \"winner\": ", f);
        cand_json(f, r, r->winner);
        fputs(", \"speedup_vs_defaults\": ", f);
        num(f, climb_tune_speedup(r));
        fputs(",\n     \"fastest\": ", f);
        cand_json(f, r, r->fastest);
        fputs(", \"fastest_speedup_vs_defaults\": ", f);
        num(f, climb_tune_fastest_speedup(r));
        fprintf(f, ", \"tie_rule\": \"the defaults stay unless the fastest beats their score by more than %.0f%%\"",
                (CLIMB_TUNE_TIE - 1) * 100);
        fputs(", \"wisdom_file\": ", f);
        climb_json_write_string(f, r->wisdom_path);
        fputs(",\n     \"candidates\": [", f);
        for (int k = 0; k < r->n_cands; k++) {
            const climb_tune_cand *cd = &r->cands[k];
            fprintf(f, "%s\n       {\"values\": ", k ? "," : "");
            values_json(f, tn, cd->values);
            fputs(", \"status\": ", f);
            climb_json_write_string(f, cd->skipped ? "skipped" : climb_row_status_name(cd->status));
            fputs(", \"note\": ", f);
            climb_json_write_string(f, cd->skipped ? cd->skipped : cd->note);
            fputs(", \"score\": ", f);
            num(f, cd->score);
            int ran = !cd->skipped && cd->status == CLIMB_ROW_OK;
            const char *keys[] = {"median_us", "noise_pct", "gbs"};
            for (int q = 0; q < 3; q++) {
                fprintf(f, ", \"%s\": [", keys[q]);
                for (int c = 0; c < r->n_cases; c++) {
                    fputs(c ? ", " : "", f);
                    double x = !ran ? NAN : q == 0 ? cd->t[c].median_us : q == 1 ? cd->t[c].noise_pct
                                                                        : r->bytes[c] / (cd->t[c].median_us * 1e3);
                    num(f, x);
                }
                fputc(']', f);
            }
            fputc('}', f);
        }
        fputs("\n     ]}", f);
    }
    fputs("\n  ]\n}\n", f);
}

static int by_score(const void *a, const void *b)
{
    const climb_tune_cand *x = *(const climb_tune_cand *const *)a, *y = *(const climb_tune_cand *const *)b;
    int xa = isfinite(x->score), ya = isfinite(y->score);
    if (xa != ya)
        return ya - xa;
    if (!xa)
        return 0;
    return x->score < y->score ? -1 : x->score > y->score;
}

void climb_tune_md(const climb_report *rep, const climb_tune_result *const *res, int n, FILE *f)
{
    climb_report_head_lines(rep, f, "");
    for (int i = 0; i < n; i++) {
        const climb_tune_result *r = res[i];
        const climb_tuning *tn = r->w->tuning;
        char d[160] = "none", wv[160] = "none", fv[160] = "none";
        if (r->fastest >= 0)
            climb_tuning_format(tn, r->cands[r->fastest].values, fv, sizeof fv);
        if (r->defaults >= 0)
            climb_tuning_format(tn, r->cands[r->defaults].values, d, sizeof d);
        if (r->winner >= 0)
            climb_tuning_format(tn, r->cands[r->winner].values, wv, sizeof wv);
        fprintf(f, "\n### climb tune %s: `%s`\n\n", r->w->name, r->w->rung(tn->rung)->name);
        for (int k = 0; k < tn->n_params; k++) {
            fprintf(f, "- `%s` (%s): ", tn->params[k].name, tn->params[k].meaning);
            for (int j = 0; j < tn->params[k].n_values; j++)
                fprintf(f, "%s%d", j ? ", " : "", tn->params[k].values[j]);
            fputc('\n', f);
        }
        fprintf(f, "- defaults: `%s` (%s)\n- fastest: `%s`, %.3f× the defaults' speed (score ratio)\n", d,
                r->defaults_source ? r->defaults_source : "", fv, climb_tune_fastest_speedup(r));
        fprintf(f, "- winner: `%s`%s%s%s\n", wv,
                r->winner == r->defaults && r->winner != r->fastest ? " (the defaults: the fastest is within the 1% tie rule)" : "",
                r->wisdom_path[0] ? "; saved to " : "", r->wisdom_path);
        fprintf(f, "- score: geometric mean over the cases of median time / the fastest median of that case (1 = "
                   "fastest everywhere)\n\n| rank | parameters | score |");
        for (int c = 0; c < r->n_cases; c++) {
            char lbl[32];
            climb_size_label(lbl, sizeof lbl, r->sizes[c]);
            fprintf(f, " %s %s µs (GB/s) |", climb_dtype_name(r->types[c]), lbl);
        }
        fputs(" |\n|--:|---|--:|", f);
        for (int c = 0; c < r->n_cases; c++)
            fputs("--:|", f);
        fputs("---|\n", f);
        const climb_tune_cand **order = malloc(sizeof *order * (size_t)r->n_cands);
        if (!order)
            continue;
        for (int k = 0; k < r->n_cands; k++)
            order[k] = &r->cands[k];
        qsort(order, (size_t)r->n_cands, sizeof *order, by_score);
        int rank = 0, skipped = 0;
        for (int k = 0; k < r->n_cands; k++) {
            const climb_tune_cand *cd = order[k];
            if (cd->skipped) {
                skipped++;
                continue;
            }
            char desc[160];
            climb_tuning_format(tn, cd->values, desc, sizeof desc);
            if (cd->status != CLIMB_ROW_OK) {
                fprintf(f, "| | `%s` | %s: %s |", desc, climb_row_status_name(cd->status), cd->note);
                for (int c = 0; c < r->n_cases; c++)
                    fputs(" |", f);
                fputs(" |\n", f);
                continue;
            }
            fprintf(f, "| %d | `%s` | %.3f |", ++rank, desc, cd->score);
            for (int c = 0; c < r->n_cases; c++)
                fprintf(f, " %.2f (%.0f) |", cd->t[c].median_us, r->bytes[c] / (cd->t[c].median_us * 1e3));
            int isw = cd == &r->cands[r->winner], isd = r->defaults >= 0 && cd == &r->cands[r->defaults];
            int isf = cd == &r->cands[r->fastest];
            fprintf(f, " %s%s%s%s%s |\n", isf ? "fastest" : "", isf && isw ? ", " : "", isw ? "winner" : "",
                    (isf || isw) && isd ? ", " : "", isd ? "defaults" : "");
        }
        free(order);
        if (skipped)
            fprintf(f, "\n%d combinations were not candidates on this GPU (e.g. more threads per SM than it holds).\n",
                    skipped);
    }
}
