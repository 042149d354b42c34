#include "tune.h"
#include "../device/device.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "../io/json.h"

void climb_tune_free(climb_tune_result *res)
{
    for (int k = 0; k < res->n_cands && res->cands; k++)
        free(res->cands[k].t);
    for (int c = 0; c < res->n_cases && res->case_opts; c++)
        climb_opt_values_free(res->w->n_options, res->case_opts[c]);
    free(res->cands);
    free(res->cases);
    free(res->case_opts);
    free(res->counts);
    free(res->defaults_per_case);
    res->cands = NULL;
    res->cases = NULL;
    res->case_opts = NULL;
    res->counts = NULL;
    res->defaults_per_case = NULL;
    res->n_cands = res->n_cases = 0;
}

static double ratio_to_defaults(const climb_tune_result *res, int k)
{
    if (k < 0 || !isfinite(res->defaults_score) || !isfinite(res->cands[k].score))
        return NAN;
    return res->defaults_score / res->cands[k].score;
}

double climb_tune_speedup(const climb_tune_result *res)
{
    return res->winner_is_defaults ? 1.0 : ratio_to_defaults(res, res->winner);
}
double climb_tune_fastest_speedup(const climb_tune_result *res) { return ratio_to_defaults(res, res->fastest); }

int climb_tune_edges(const climb_tune_result *res, char *buf, size_t len)
{
    const climb_tuning *tn = res->w->tuning;
    int n = 0;
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int k = 0; res->fastest >= 0 && k < tn->n_params; k++) {
        const climb_tunable *p = &tn->params[k];
        if (p->n_values < 3)
            continue;
        int lo = p->values[0], hi = p->values[0];
        for (int j = 1; j < p->n_values; j++) {
            lo = p->values[j] < lo ? p->values[j] : lo;
            hi = p->values[j] > hi ? p->values[j] : hi;
        }
        const int v = res->cands[res->fastest].values[k];
        if (v != lo && v != hi)
            continue;
        n++;
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s=%d, the %s offered", used ? "; " : "", p->name, v,
                                     v == hi ? "largest" : "smallest");
    }
    return n;
}

static int cand_index(const climb_tune_result *res, const int *v, int n_params)
{
    for (int k = 0; k < res->n_cands; k++)
        if (!res->cands[k].skipped && memcmp(res->cands[k].values, v, sizeof(int) * (size_t)n_params) == 0)
            return k;
    return -1;
}

/* Geometric mean over the cases of time(case) / best(case), where cand_of(case) names the candidate. */
static double score_of(const climb_tune_result *res, const double *best, const int *cand_of)
{
    double lg = 0;
    for (int ci = 0; ci < res->n_cases; ci++) {
        int k = cand_of[ci];
        if (k < 0 || res->cands[k].status != CLIMB_ROW_OK)
            return NAN;
        lg += log(res->cands[k].t[ci].median_us / best[ci]);
    }
    return exp(lg / res->n_cases);
}

int climb_tune(const climb_workload *w, const climb_run_opts *o, climb_timer *t, const climb_device_info *dev,
               climb_tune_result *res)
{
    memset(res, 0, sizeof *res);
    res->w = w;
    snprintf(res->cls, sizeof res->cls, "%s", o->only_class ? o->only_class : "");
    res->winner = res->defaults = res->fastest = -1;
    res->defaults_score = NAN;
    const climb_tuning *tn = w->tuning;
    res->rung = climb_best_rung(w);
    if (!tn || res->rung < 0) {
        fprintf(stderr, "climb: %s has nothing to tune\n", w->name);
        return -1;
    }
    if (tn->n_params > CLIMB_MAX_TUNABLES) {
        fprintf(stderr, "climb: %s has %d tunable parameters; climb takes at most %d\n", w->name, tn->n_params,
                CLIMB_MAX_TUNABLES);
        return -1;
    }
    climb_run_setup rs;
    int failures = 0, rc = -1;
    climb_run_opts cases_of = *o; /* a class from the shape is dev's unless the caller said otherwise */
    if (!cases_of.class_dev)
        cases_of.class_dev = dev;
    int n_shapes;
    const climb_shape *shapes = climb_tune_shapes(w, &n_shapes);
    if (climb_run_setup_open(w, &cases_of, shapes, n_shapes, &rs) != 0)
        goto out;
    const climb_opt_plan *plan = rs.plan;
    res->cases = rs.keys; /* the result keeps the cases */
    rs.keys = NULL;
    res->n_cases = rs.n_cases;
    long total = climb_tuning_count(tn);
    res->cands = calloc((size_t)total, sizeof *res->cands);
    res->case_opts = calloc((size_t)res->n_cases + 1, sizeof *res->case_opts);
    res->counts = calloc((size_t)res->n_cases + 1, sizeof *res->counts);
    res->defaults_per_case = calloc((size_t)res->n_cases + 1, sizeof *res->defaults_per_case);
    if (!res->cands || !res->case_opts || !res->counts || !res->defaults_per_case) {
        climb_host_oom("%ld tuning candidates", total);
        goto out;
    }
    /* Candidates: every one, those this device rejects kept with the reason. */
    int runnable = 0;
    for (long i = 0; i < total; i++) {
        climb_tune_cand *cd = &res->cands[res->n_cands++];
        climb_tuning_values(tn, i, cd->values);
        cd->skipped = climb_tuning_check(tn, dev, cd->values, cd->skip_buf, sizeof cd->skip_buf);
        cd->score = NAN;
        cd->t = calloc((size_t)res->n_cases + 1, sizeof *cd->t);
        if (!cd->t) {
            climb_host_oom("tuning samples");
            goto out;
        }
        runnable += cd->skipped == NULL;
    }
    /* Each case's defaults, and whether they are one candidate for all. */
    climb_opt_value *vals = w->n_options ? calloc((size_t)w->n_options, sizeof *vals) : NULL;
    if (w->n_options && !vals) {
        climb_host_oom("the option values of a case");
        goto out;
    }
    for (int ci = 0; ci < res->n_cases; ci++) {
        int v[CLIMB_MAX_TUNABLES];
        if (vals)
            climb_opt_plan_combo(plan, res->cases[ci].combo, vals);
        climb_tuning_key key = {res->cases[ci].shape, res->cases[ci].type, vals};
        const char *src = climb_tuning_defaults(tn, dev, &key, v);
        if (ci == 0)
            res->defaults_source = src;
        res->defaults_per_case[ci] = cand_index(res, v, tn->n_params);
    }
    free(vals);
    res->defaults = res->n_cases > 0 ? res->defaults_per_case[0] : -1;
    for (int ci = 1; ci < res->n_cases; ci++)
        if (res->defaults_per_case[ci] != res->defaults)
            res->defaults = -1;

    int done = 0;
    /* on a terminal, a bar over every candidate of every case, with the time left; elsewhere a line each */
    climb_progress meter = {(long)runnable * res->n_cases, 0, climb_wall_s(), o->progress && isatty(2), 0};
    for (int ci = 0; ci < res->n_cases; ci++) {
        const climb_case_key *k = &res->cases[ci];
        char label[160];
        climb_case_label(w, &k->shape, label, sizeof label);
        if (o->progress && !meter.tty)
            fprintf(stderr, "[tune %s %s %s] preparing inputs and reference\n", w->name, climb_dtype_name(k->type), label);
        climb_open_case oc;
        if (climb_case_open(w, o, plan, k, 0, dev, t->stream, &oc) != 0)
            goto out;
        res->case_opts[ci] = climb_opt_values_dup(w->n_options, oc.opts);
        w->counts(oc.c, &res->counts[ci]);
        const char *why = climb_case_refuses(w, oc.c, res->rung);
        if (why || oc.ref_failed) {
            climb_progress_break(&meter);
            fprintf(stderr, "climb: %s cannot be tuned on %s %s: %s\n", w->rung(res->rung)->name,
                    climb_dtype_name(k->type), label, why ? why : oc.reference);
            climb_case_close(w, &oc);
            goto out;
        }
        for (int c = 0; c < res->n_cands; c++) {
            climb_tune_cand *cd = &res->cands[c];
            if (cd->skipped || cd->status != CLIMB_ROW_OK)
                continue;
            w->set_tuning(oc.c, cd->values);
            char msg[300], desc[200];
            climb_tuning_format(tn, cd->values, desc, sizeof desc);
            if (meter.tty) {
                char what[480];
                snprintf(what, sizeof what, "tune %s %s %s: %s", w->name, climb_dtype_name(k->type), label, desc);
                climb_progress_step(&meter, what);
            }
            int v = climb_measure_rung(w, oc.c, res->rung, t, &o->timing, &cd->t[ci], msg, sizeof msg);
            done++;
            if (v == 0 && o->progress && !meter.tty)
                fprintf(stderr, "[tune %s %s %s] %d/%d %s: %.2f us\n", w->name, climb_dtype_name(k->type), label, done,
                        runnable * res->n_cases, desc, cd->t[ci].median_us);
            if (v != 0) {
                cd->status = v == 1 ? CLIMB_ROW_WRONG : CLIMB_ROW_ERROR;
                snprintf(cd->note, sizeof cd->note, "%s %s: %s", climb_dtype_name(k->type), label, msg);
                climb_progress_break(&meter);
                fprintf(stderr, "FAIL tune %s %s: %s\n", w->name, desc, cd->note);
                failures++;
                if (climb_context_lost(v)) {
                    climb_case_close(w, &oc);
                    goto out;
                }
            }
        }
        climb_case_close(w, &oc);
    }
    climb_progress_break(&meter);
    /* Scores: each case's medians relative to that case's fastest, geometric mean over the cases. */
    double *best = calloc((size_t)res->n_cases + 1, sizeof *best);
    int *same = calloc((size_t)res->n_cases + 1, sizeof *same);
    if (!best || !same) {
        free(best);
        free(same);
        goto out;
    }
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
        for (int ci = 0; ci < res->n_cases; ci++)
            same[ci] = k;
        cd->score = score_of(res, best, same);
        if (res->fastest < 0 || cd->score < res->cands[res->fastest].score)
            res->fastest = k;
    }
    res->defaults_score = score_of(res, best, res->defaults_per_case);
    free(best);
    free(same);
    res->winner = res->fastest;
    if (res->fastest >= 0 && isfinite(res->defaults_score) &&
        res->defaults_score <= res->cands[res->fastest].score * CLIMB_TUNE_TIE) {
        res->winner_is_defaults = 1;
        res->winner = res->defaults; /* -1 when the defaults differ from case to case */
    }
    rc = failures;
out:
    climb_run_setup_close(w, &rs);
    return rc;
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

static double case_bytes(const climb_tune_result *r, int c) { return r->counts[c].bytes_read + r->counts[c].bytes_written; }

void climb_tune_json(const climb_report *rep, const climb_tune_result *const *res, int n, FILE *f)
{
    climb_report_json_head(rep, f);
    const climb_workload **ws = calloc((size_t)(n ? n : 1), sizeof *ws);
    int nw = 0; /* each workload once, however many tuning classes it was tuned for */
    for (int i = 0; ws && i < n; i++) {
        int seen = 0;
        for (int j = 0; j < nw && !seen; j++)
            seen = ws[j] == res[i]->w;
        if (!seen)
            ws[nw++] = res[i]->w;
    }
    climb_report_json_workloads(ws, nw, f);
    free(ws);
    fputs("  \"tuning\": [", f);
    for (int i = 0; i < n; i++) {
        const climb_tune_result *r = res[i];
        const climb_tuning *tn = r->w->tuning;
        fprintf(f, "%s\n    {\"workload\": ", i ? "," : "");
        climb_json_write_string(f, r->w->name);
        fputs(", \"rung\": ", f);
        climb_json_write_string(f, r->w->rung(r->rung)->name);
        fputs(", \"class\": ", f);
        climb_json_write_string(f, r->cls);
        fputs(",\n     \"params\": [", f);
        for (int k = 0; k < tn->n_params; k++) {
            fprintf(f, "%s{\"name\": \"%s\", \"meaning\": ", k ? ", " : "", tn->params[k].name);
            climb_json_write_string(f, tn->params[k].meaning);
            fputs(", \"values\": [", f);
            for (int j = 0; j < tn->params[k].n_values; j++)
                fprintf(f, "%s%d", j ? ", " : "", tn->params[k].values[j]);
            fputs("]}", f);
        }
        fprintf(f, "], \"candidate_list\": %s,\n     \"cases\": [", tn->candidates ? "\"explicit\"" : "\"every combination\"");
        for (int c = 0; c < r->n_cases; c++) {
            char label[128];
            climb_shape_label(&r->cases[c].shape, label, sizeof label);
            fprintf(f, "%s{\"type\": \"%s\", \"shape\": [", c ? ", " : "", climb_dtype_name(r->cases[c].type));
            for (int d = 0; d < r->cases[c].shape.ndims; d++)
                fprintf(f, "%s%zu", d ? ", " : "", r->cases[c].shape.d[d]);
            fputs("], \"shape_label\": ", f);
            climb_json_write_string(f, label);
            fputs(", \"bytes\": ", f);
            num(f, case_bytes(r, c));
            fputc('}', f);
        }
        fputs("],\n     \"score\": \"geometric mean over the cases of median time / the fastest median of that case\",", f);
        fputs("\n     \"defaults\": ", f);
        cand_json(f, r, r->defaults);
        fputs(", \"defaults_per_case\": [", f);
        for (int c = 0; c < r->n_cases; c++) {
            fputs(c ? ", " : "", f);
            cand_json(f, r, r->defaults_per_case[c]);
        }
        fputs("], \"defaults_score\": ", f);
        num(f, r->defaults_score);
        fputs(", \"defaults_source\": ", f);
        climb_json_write_string(f, r->defaults_source ? r->defaults_source : "");
        fputs(",\n     \"winner\": ", f);
        cand_json(f, r, r->winner);
        fprintf(f, ", \"winner_is_defaults\": %s, \"speedup_vs_defaults\": ", r->winner_is_defaults ? "true" : "false");
        num(f, climb_tune_speedup(r));
        fputs(",\n     \"fastest\": ", f);
        cand_json(f, r, r->fastest);
        fputs(", \"fastest_speedup_vs_defaults\": ", f);
        num(f, climb_tune_fastest_speedup(r));
        char edges[600];
        climb_tune_edges(r, edges, sizeof edges);
        fputs(", \"fastest_at_edge\": ", f);
        climb_json_write_string(f, edges);
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
                                                                        : case_bytes(r, c) / (cd->t[c].median_us * 1e3);
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
        char d[200] = "they vary by case", wv[200] = "none", fv[200] = "none";
        if (r->fastest >= 0)
            climb_tuning_format(tn, r->cands[r->fastest].values, fv, sizeof fv);
        if (r->defaults >= 0)
            climb_tuning_format(tn, r->cands[r->defaults].values, d, sizeof d);
        if (r->winner >= 0)
            climb_tuning_format(tn, r->cands[r->winner].values, wv, sizeof wv);
        else if (r->winner_is_defaults)
            snprintf(wv, sizeof wv, "the built-in defaults of each case");
        fprintf(f, "\n### climb tune %s: `%s`%s%s%s\n\n", r->w->name, r->w->rung(r->rung)->name,
                r->cls[0] ? " (" : "", r->cls, r->cls[0] ? ")" : "");
        for (int k = 0; k < tn->n_params; k++) {
            fprintf(f, "- `%s` (%s): ", tn->params[k].name, tn->params[k].meaning);
            for (int j = 0; j < tn->params[k].n_values; j++)
                fprintf(f, "%s%d", j ? ", " : "", tn->params[k].values[j]);
            fputc('\n', f);
        }
        if (tn->candidates)
            fprintf(f, "- candidates: the %d sets listed in the workload (not every combination)\n", tn->n_candidates);
        fprintf(f, "- defaults: `%s` (%s)\n- fastest: `%s`, %.3f× the defaults' speed (score ratio)\n", d,
                r->defaults_source ? r->defaults_source : "", fv, climb_tune_fastest_speedup(r));
        char edges[600];
        if (climb_tune_edges(r, edges, sizeof edges))
            fprintf(f, "- at the edge: %s (a value past it may be faster still: widen the list)\n", edges);
        fprintf(f, "- winner: `%s`%s%s%s\n", wv,
                r->winner_is_defaults && r->winner != r->fastest ? " (the defaults: the fastest is within the 1% tie rule)" : "",
                r->wisdom_path[0] ? "; saved to " : "", r->wisdom_path);
        fprintf(f, "- score: geometric mean over the cases of median time / the fastest median of that case (1 = "
                   "fastest everywhere)\n\n| rank | parameters | score |");
        for (int c = 0; c < r->n_cases; c++) {
            char lbl[128];
            climb_shape_label(&r->cases[c].shape, lbl, sizeof lbl);
            fprintf(f, " %s %s µs (GB/s) |", climb_dtype_name(r->cases[c].type), lbl);
        }
        fputs(" |\n|--:|---|--:|", f);
        for (int c = 0; c < r->n_cases; c++)
            fputs("--:|", f);
        fputs("---|\n", f);
        const climb_tune_cand **order = malloc(sizeof *order * (size_t)(r->n_cands ? r->n_cands : 1));
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
            char desc[200];
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
                fprintf(f, " %.2f (%.0f) |", cd->t[c].median_us, case_bytes(r, c) / (cd->t[c].median_us * 1e3));
            int isw = r->winner >= 0 && cd == &r->cands[r->winner], isd = r->defaults >= 0 && cd == &r->cands[r->defaults];
            int isf = r->fastest >= 0 && cd == &r->cands[r->fastest];
            fprintf(f, " %s%s%s%s%s |\n", isf ? "fastest" : "", isf && isw ? ", " : "", isw ? "winner" : "",
                    (isf || isw) && isd ? ", " : "", isd ? "defaults" : "");
        }
        free(order);
        if (skipped)
            fprintf(f, "\n%d combinations were not candidates on this GPU (e.g. more threads per SM than it holds).\n",
                    skipped);
    }
}
