/* GPU: what the contract carries that reduce does not use, proved on the test workload (tests/workloads/affine.cu):
 * every rung (vendor, cuDNN where built, in-place, dynamic parallelism, tuned) right on every type, both ops, every
 * distribution and both paddings over the edge shapes; every listed tuning candidate right; the reset of a changed
 * operand (and the wrong answer without it); batch timing refused for that rung only; each reference mode chosen as
 * stated and able to fail; a case read from a file; counts and the roofline with the SFU ceiling; tuning with
 * seven parameters, a listed candidate set and defaults that differ by case; a set-up timed without its first
 * prepare's one-time cost. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/build_info.h"
#include "device/device.h"
#include "core/harness.h"
#include "base/rng.h"
#include "core/tune.h"
#include "lib/handle.h"
#include "workloads/affine.h"
#include "testing.h"

static const climb_workload *w = &climb_affine_workload;
static climb_device_info dev;

static int opt(const char *name) { return climb_opt_find(w->options, w->n_options, name); }

static void plan_with(climb_opt_plan *p, const char *const *sets)
{
    char err[300];
    EXPECT(climb_opt_plan_init(p, w->options, w->n_options, err, sizeof err) == 0);
    for (int i = 0; sets && sets[i]; i += 2)
        EXPECT_MSG(climb_opt_plan_set(p, opt(sets[i]), sets[i + 1], 0, err, sizeof err) == 0, "%s", err);
}

/* Options for short timed runs: a few samples each (this test checks behaviour, not speed). */
static climb_run_opts timed_opts(uint64_t seed, double max_wall_s)
{
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.timing = climb_timing_defaults();
    o.timing.min_samples = 3;
    o.timing.max_wall_s = max_wall_s;
    return o;
}

static void test_check_everything(void)
{
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = climb_fresh_seed();
    printf("check seed %" PRIu64 "\n", o.seed);
    /* The quick shapes under every op, distribution and padding; then the whole sweep with the defaults. */
    climb_opt_plan p;
    const char *sweep[] = {"op", "all", "dist", "all", NULL};
    plan_with(&p, sweep);
    o.options = &p;
    o.quick = 1;
    EXPECT(climb_check(w, &o, &dev, NULL) == 0);
    climb_opt_plan_free(&p, NULL);
    o.options = NULL;
    o.quick = 0;
    EXPECT(climb_check(w, &o, &dev, NULL) == 0);

    /* Every listed candidate of the tuned rung on the quick shapes. */
    const char *best[1] = {w->rung(climb_best_rung(w))->name};
    o.rungs = best;
    o.n_rungs = 1;
    o.quick = 1;
    for (long i = 0; i < climb_tuning_count(w->tuning); i++) {
        int v[CLIMB_MAX_TUNABLES];
        climb_tuning_values(w->tuning, i, v);
        o.tuning = v;
        char desc[200];
        climb_tuning_format(w->tuning, v, desc, sizeof desc);
        EXPECT_MSG(climb_check(w, &o, &dev, NULL) == 0, "candidate %s", desc);
    }
    /* The cuDNN rung is there exactly when the build found cuDNN. */
    EXPECT((climb_find_rung(w, "affine_cudnn") >= 0) == (climb_build_cudnn[0] != '\0'));
    printf("cuDNN rung: %s\n", climb_build_cudnn[0] ? climb_build_cudnn : "not built");
}

/* Without the reset the in-place rung's second run transforms its own output: the harness's reset is what keeps
 * every timed run right. */
static void test_reset(void)
{
    climb_opt_plan p;
    plan_with(&p, NULL);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 11;
    climb_case_key k = {CLIMB_F32, CLIMB_SHAPE2(33, 65), 0};
    climb_open_case oc;
    EXPECT(climb_case_open(w, &o, &p, &k, 0, &dev, 0, &oc) == 0);
    int r = climb_find_rung(w, "affine_in_place");
    EXPECT(r >= 0 && w->modifies(oc.c, r) != NULL && w->modifies(oc.c, climb_best_rung(w)) == NULL);
    char msg[300];
    EXPECT(climb_case_poison(w, oc.c) == 0 && climb_case_reset(w, oc.c, 0) == 0 && climb_case_run(w, oc.c, r, 0) == 0);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess && climb_case_verify(w, oc.c, r, msg, sizeof msg) == 0);
    EXPECT(climb_case_run(w, oc.c, r, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
    EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 1, "a second run without reset went unnoticed");
    climb_case_close(w, &oc);
    climb_opt_plan_free(&p, NULL);
}

static const climb_row *row_of(const climb_report *rep, const char *rung, climb_dtype t)
{
    for (int i = 0; i < rep->n_rows; i++)
        if (strcmp(w->rung(rep->rows[i].rung)->name, rung) == 0 && rep->rows[i].type == t)
            return &rep->rows[i];
    return NULL;
}

/* The quick run's budget (bench all): a rung whose first run takes longer is right but not timed, and its row
 * says so; nothing fails. */
static void test_budget(void)
{
    climb_timer t;
    EXPECT(climb_timer_init(&t, (size_t)dev.l2_bytes) == 0);
    climb_run_opts o = timed_opts(climb_fresh_seed(), 0.05);
    climb_shape shapes[1] = {CLIMB_SHAPE2(300, 200)};
    o.shapes = shapes;
    o.n_shapes = 1;
    o.timing.budget_s = 1e-9;
    climb_opt_plan p;
    const char *sets[] = {NULL};
    plan_with(&p, sets);
    o.options = &p;
    o.types = CLIMB_TYPE_BIT(CLIMB_F32);
    climb_progress meter = {100, 0, 0, 0, 0};
    o.meter = &meter;
    climb_report rep;
    climb_report_init(&rep, "bench", o.seed, 0, &dev);
    EXPECT(climb_bench(w, &o, &t, &rep) == 0);
    int refused = 0;
    for (int i = 0; i < rep.n_rows; i++)
        refused += rep.rows[i].status == CLIMB_ROW_REFUSED && strstr(rep.rows[i].note, "not timed: one verified run took");
    EXPECT_MSG(rep.n_rows > 0 && refused > 0 && meter.done == refused, "%d rows, %d over the budget, %ld counted",
               rep.n_rows, refused, meter.done);
    climb_report_free(&rep);
    climb_opt_plan_free(&p, NULL);
    climb_timer_free(&t);
}

static void test_bench(void)
{
    climb_timer t;
    EXPECT(climb_timer_init(&t, (size_t)dev.l2_bytes) == 0);
    climb_run_opts o = timed_opts(climb_fresh_seed(), 0.05);
    climb_shape shapes[1] = {CLIMB_SHAPE2(1000, 1000)};
    o.shapes = shapes;
    o.n_shapes = 1;
    climb_opt_plan p;
    const char *sets[] = {"op", "rsqrt", "pad", "3", NULL};
    plan_with(&p, sets);
    o.options = &p;
    o.types = CLIMB_TYPE_BIT(CLIMB_F32) | CLIMB_TYPE_BIT(CLIMB_U8);
    for (int batch = 0; batch <= 1; batch++) {
        climb_report rep;
        climb_report_init(&rep, "bench", o.seed, batch, &dev);
        o.timing.batch = batch;
        int failures = climb_bench(w, &o, &t, &rep);
        EXPECT(failures == 0);
        climb_report_derive(&rep);
        const climb_row *in_place = row_of(&rep, "affine_in_place", CLIMB_F32);
        const climb_row *tuned = row_of(&rep, "affine_tuned", CLIMB_F32);
        const climb_row *u8 = row_of(&rep, "affine_naive", CLIMB_U8);
        EXPECT(in_place && tuned && u8);
        if (!in_place || !tuned || !u8)
            break;
        if (batch)
            EXPECT_MSG(in_place->status == CLIMB_ROW_REFUSED && strstr(in_place->note, "no batch timing"), "%s",
                       in_place->note);
        else
            EXPECT_MSG(in_place->status == CLIMB_ROW_OK, "%s", in_place->note);
        EXPECT(tuned->status == CLIMB_ROW_OK);
        /* contract v3: a rung with a host part is timed by the wall clock, cold only; a rung's own counts (the
         * vendor transforms the padding too: 1000 x 1003 elements each way); release between rungs (affine's
         * prepare fails while another rung's buffers are held, so every row ran only if release was called) */
        const climb_row *host = row_of(&rep, "affine_host_blocks", CLIMB_F32);
        const climb_row *cub = row_of(&rep, "affine_cub_transform", CLIMB_F32);
        EXPECT(host && cub);
        if (host && batch)
            EXPECT_MSG(host->status == CLIMB_ROW_REFUSED && strstr(host->note, "waits for the host"), "%s", host->note);
        else if (host)
            EXPECT_MSG(host->status == CLIMB_ROW_OK && host->wall && host->t.wall && host->t.median_us > 0, "%s",
                       host->note);
        /* its set-up reported, timed on a second prepare: the first's one-time cost (a sleep of
         * AFFINE_FIRST_PREPARE_MS) left out */
        if (host && !batch)
            EXPECT_MSG(host->has_setup && host->setup.bytes == sizeof(unsigned) &&
                           host->setup.ms < 0.5 * AFFINE_FIRST_PREPARE_MS,
                       "set-up %d: %.1f ms", host->has_setup, host->setup.ms);
        /* a rung's note about its run (rung_note) reaches the report's notes, once per measured row */
        int host_notes = 0;
        for (int i = 0; i < rep.n_notes; i++)
            host_notes += strstr(rep.notes[i], "affine_host_blocks: the device reported 1000 rows done") != NULL;
        EXPECT_MSG(host_notes == (host && host->status == CLIMB_ROW_OK), "%d notes of affine_host_blocks", host_notes);
        if (cub)
            EXPECT(cub->own_counts && cub->counts.bytes_read == 1000.0 * 1003 * 4 && !tuned->own_counts &&
                   tuned->counts.bytes_read == 4e6);
        for (int i = 0; i < rep.n_rows; i++)
            EXPECT_MSG(rep.rows[i].status != CLIMB_ROW_ERROR, "%s: %s", w->rung(rep.rows[i].rung)->name,
                       rep.rows[i].note);
        /* op=rsqrt takes float types only: every u8 rung refuses the case. */
        EXPECT(u8->status == CLIMB_ROW_REFUSED && strstr(u8->note, "float types only"));
        /* Counts and the roofline: one MUFU op and one element each, memory-bound at this size. */
        EXPECT(tuned->counts.special_ops == 1e6 && tuned->counts.items == 1e6 && tuned->counts.bytes_read == 4e6);
        EXPECT(dev.sfu_gops > 0 && isfinite(tuned->pct_roofline) && tuned->pct_roofline > 1 &&
               tuned->pct_roofline < 110 && isfinite(tuned->special_rate) && isfinite(tuned->items_rate));
        EXPECT_MSG(strcmp(tuned->bound, "memory") == 0, "%s", tuned->bound);
        EXPECT(strstr(tuned->reference, "CPU, every element") != NULL);
        EXPECT(strstr(tuned->input, "x uniform random") != NULL);
        printf("%s: %.2f us, %.0f GB/s, %.1f%% of roofline (%s)\n", batch ? "batch" : "cold", tuned->t.median_us,
               tuned->gbs, tuned->pct_roofline, tuned->bound);
        climb_report_free(&rep);
    }
    climb_opt_plan_free(&p, NULL);
    climb_timer_free(&t);
}

static void test_references(void)
{
    climb_opt_plan p;
    plan_with(&p, NULL);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 3;
    struct { climb_shape s; climb_ref_mode m; const char *want; } cases[] = {
        {CLIMB_SHAPE2(1024, 1024), CLIMB_REF_AUTO, "CPU, every element"},
        {CLIMB_SHAPE2(2048, 2048), CLIMB_REF_AUTO, "affine_cub_transform's output, 64 elements spot-checked"},
        {CLIMB_SHAPE2(100, 100), CLIMB_REF_VENDOR, "affine_cub_transform's output"},
        {CLIMB_SHAPE2(100, 1000), CLIMB_REF_SAMPLES, "CPU, 4096 random elements"},
    };
    EXPECT(2048.0 * 2048 > AFFINE_REF_LIMIT && 1024.0 * 1024 <= AFFINE_REF_LIMIT);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int t = 0; t < CLIMB_NTYPES; t++) {
            if (!(w->types & CLIMB_TYPE_BIT(t)))
                continue;
            o.reference = cases[i].m;
            climb_case_key k = {(climb_dtype)t, cases[i].s, 1};
            climb_open_case oc;
            EXPECT(climb_case_open(w, &o, &p, &k, 0, &dev, 0, &oc) == 0);
            EXPECT_MSG(!oc.ref_failed && strstr(oc.reference, cases[i].want), "%s", oc.reference);
            /* Each mode sees a wrong result and a right one. */
            char msg[300];
            int r = climb_best_rung(w);
            EXPECT(climb_case_poison(w, oc.c) == 0 && climb_case_verify(w, oc.c, r, msg, sizeof msg) == 1);
            EXPECT(climb_case_run(w, oc.c, r, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
            EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 0, "%s", msg);
            /* The vendor's output is spot-checked before it is adopted: poisoned output fails. */
            if (cases[i].m == CLIMB_REF_VENDOR) {
                char desc[300];
                EXPECT(climb_case_poison(w, oc.c) == 0 && climb_case_reference(w, oc.c, CLIMB_REF_VENDOR, desc, sizeof desc) == 1);
                EXPECT(strstr(desc, "the vendor's y[") != NULL);
            }
            climb_case_close(w, &oc);
        }
    climb_opt_plan_free(&p, NULL);
}

static void test_file_input(void)
{
    char dir[] = "/tmp/climb_contract_XXXXXX", path[128], err[300];
    EXPECT(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/m.txt", dir);
    test_write_text(path, "# a 3 x 4 matrix\n3 4\n1 2 3 4\n5 6 7 8\n9 10 11 250\n");
    climb_opt_plan p;
    plan_with(&p, NULL);
    int k = opt("input");
    EXPECT(climb_opt_plan_set(&p, k, path, 1, err, sizeof err) == 0);
    climb_opt_value *v = &p.values[k][0];
    char desc[300];
    EXPECT(w->load(v->text, &v->data, &v->shape, desc, sizeof desc, err, sizeof err) == 0);
    v->desc = strdup(desc);
    climb_timer t;
    EXPECT(climb_timer_init(&t, (size_t)dev.l2_bytes) == 0);
    climb_run_opts o = timed_opts(1, 0.02);
    o.options = &p;
    climb_report rep;
    climb_report_init(&rep, "bench", 1, 0, &dev);
    EXPECT(climb_bench(w, &o, &t, &rep) == 0);
    int rows = 0, ok = 0;
    for (int i = 0; i < rep.n_rows; i++) {
        const climb_row *r = &rep.rows[i];
        rows++;
        EXPECT(r->shape.ndims == 2 && r->shape.d[0] == 3 && r->shape.d[1] == 4);
        EXPECT_MSG(strstr(r->input, "m.txt: 3 x 4 text matrix") != NULL, "%s", r->input);
        ok += r->status == CLIMB_ROW_OK;
    }
    /* The file's values are whole numbers below 256: every type takes them (pad 0 and 3: two combinations). */
    EXPECT(rows > 0 && ok > 0);
    climb_report_free(&rep);
    /* A value u8 cannot hold refuses the u8 case, with the reason. */
    test_write_text(path, "1 2\n1.5 300\n");
    climb_opt_plan_free(&p, w->unload);
    plan_with(&p, NULL);
    EXPECT(climb_opt_plan_set(&p, k, path, 1, err, sizeof err) == 0);
    v = &p.values[k][0];
    EXPECT(w->load(v->text, &v->data, &v->shape, desc, sizeof desc, err, sizeof err) == 0);
    o.options = &p;
    o.types = CLIMB_TYPE_BIT(CLIMB_U8) | CLIMB_TYPE_BIT(CLIMB_F64);
    climb_report_init(&rep, "bench", 1, 0, &dev);
    EXPECT(climb_bench(w, &o, &t, &rep) == 0);
    int refused_u8 = 0, ok_f64 = 0;
    for (int i = 0; i < rep.n_rows; i++) {
        const climb_row *r = &rep.rows[i];
        refused_u8 += r->type == CLIMB_U8 && r->status == CLIMB_ROW_REFUSED && strstr(r->note, "not a u8 value");
        ok_f64 += r->type == CLIMB_F64 && r->status == CLIMB_ROW_OK;
    }
    EXPECT(refused_u8 > 0 && ok_f64 > 0);
    climb_report_free(&rep);
    /* --output: a run of several cases is refused before any case opens; one case writes the best rung's output
     * in the input's form (the matrix read back: the identity map, alpha 1 and beta 0, gives the file's values). */
    char out_path[300];
    snprintf(out_path, sizeof out_path, "%s/out.txt", dir);
    test_write_text(path, "2 3\n1 2 3\n4 5 6.5\n");
    climb_opt_plan_free(&p, w->unload);
    const char *const identity[] = {"alpha", "1", "beta", "0", "op", "axpb", "pad", "0", NULL};
    plan_with(&p, identity);
    EXPECT(climb_opt_plan_set(&p, k, path, 1, err, sizeof err) == 0);
    v = &p.values[k][0];
    EXPECT(w->load(v->text, &v->data, &v->shape, desc, sizeof desc, err, sizeof err) == 0);
    o.options = &p;
    o.output = out_path;
    o.types = CLIMB_TYPE_BIT(CLIMB_F32) | CLIMB_TYPE_BIT(CLIMB_F64);
    climb_report_init(&rep, "bench", 1, 0, &dev);
    EXPECT(climb_bench(w, &o, &t, &rep) == -1 && rep.n_rows == 0);
    climb_report_free(&rep);
    o.types = CLIMB_TYPE_BIT(CLIMB_F64);
    climb_report_init(&rep, "bench", 1, 0, &dev);
    EXPECT(climb_bench(w, &o, &t, &rep) == 0);
    char text[400];
    test_read_text(out_path, text, sizeof text);
    char want[200];
    snprintf(want, sizeof want, "# affine %s\n2 3\n1 2 3\n4 5 6.5\n", w->rung(climb_best_rung(w))->name);
    EXPECT_MSG(strcmp(text, want) == 0, "the output file:\n%s", text);
    climb_report_free(&rep);
    remove(out_path);
    o.output = NULL;
    climb_timer_free(&t);
    climb_opt_plan_free(&p, w->unload);
    remove(path);
    rmdir(dir);
}

static void test_tune(void)
{
    climb_timer t;
    EXPECT(climb_timer_init(&t, (size_t)dev.l2_bytes) == 0);
    climb_run_opts o = timed_opts(climb_fresh_seed(), 0.02);
    climb_shape shapes[2] = {CLIMB_SHAPE2(256, 256), CLIMB_SHAPE2(300, 7)};
    o.shapes = shapes;
    o.n_shapes = 2;
    o.types = CLIMB_TYPE_BIT(CLIMB_F32) | CLIMB_TYPE_BIT(CLIMB_U8);
    climb_opt_plan p;
    const char *sets[] = {"pad", "0", NULL};
    plan_with(&p, sets);
    o.options = &p;
    climb_tune_result res;
    EXPECT(climb_tune(w, &o, &t, &dev, &res) == 0);
    EXPECT(res.n_cases == 4 && res.n_cands == 8);
    int ran = 0;
    for (int k = 0; k < res.n_cands; k++)
        ran += !res.cands[k].skipped && res.cands[k].status == CLIMB_ROW_OK && isfinite(res.cands[k].score);
    EXPECT(ran == 8 && res.fastest >= 0);
    /* The defaults differ by case (u8: 4 columns a thread; 7 columns: narrow blocks), so no one candidate is them. */
    EXPECT(res.defaults == -1 && res.defaults_per_case[0] != res.defaults_per_case[1] &&
           res.defaults_per_case[0] != res.defaults_per_case[2]);
    EXPECT(isfinite(res.defaults_score) && res.defaults_score >= 1.0 - 1e-12);
    EXPECT(res.winner_is_defaults ? res.winner == -1 : res.winner == res.fastest);
    printf("tune: fastest %.3f, defaults %.3f, %s\n", res.cands[res.fastest].score, res.defaults_score,
           res.winner_is_defaults ? "the defaults stay" : "the fastest wins");
    climb_tune_free(&res);
    climb_opt_plan_free(&p, NULL);
    climb_timer_free(&t);
}

/* Options that key the tuning (contract v3): tune one class at a time; the C API looks up each class's wisdom. */
static void test_tuning_classes(void)
{
    climb_timer t;
    EXPECT(climb_timer_init(&t, (size_t)dev.l2_bytes) == 0);
    climb_run_opts o = timed_opts(climb_fresh_seed(), 0.01);
    climb_shape shapes[1] = {CLIMB_SHAPE2(256, 256)};
    o.shapes = shapes;
    o.n_shapes = 1;
    o.types = CLIMB_TYPE_BIT(CLIMB_F32);
    climb_opt_plan p;
    const char *sets[] = {"pad", "0", "op", "axpb,rsqrt", NULL};
    plan_with(&p, sets);
    o.options = &p;
    o.only_class = "op=rsqrt";
    climb_tune_result res;
    EXPECT(climb_tune(w, &o, &t, &dev, &res) == 0);
    EXPECT_MSG(res.n_cases == 1 && strcmp(res.cls, "op=rsqrt") == 0, "%d cases, class %s", res.n_cases, res.cls);
    EXPECT(res.n_cases == 1 && res.case_opts[0][opt("op")].choice == 1);
    /* the defaults saw the option: op=rsqrt's rule is the fourth listed candidate */
    EXPECT(res.defaults == 3);
    climb_tune_free(&res);
    climb_opt_plan_free(&p, NULL);
    climb_timer_free(&t);

    /* A wisdom file with an entry per class; the handle gives each case its class's values. */
    char dir[] = "/tmp/climb_classes_XXXXXX", path[128], text[2048];
    EXPECT(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/w.json", dir);
    const char *entry = "{\"workload\": \"affine\", \"class\": \"%s\", \"gpu\": \"%s\", \"cc\": \"%d.%d\", "
                        "\"driver\": %d, \"climb\": \"%s\", \"params\": {\"block_x\": %d, \"block_y\": %d, "
                        "\"rows_per_thread\": %d, \"cols_per_thread\": %d, \"grid_x\": %d, \"grid_y\": %d, \"ldg\": %d}}";
    char e1[700], e2[700];
    snprintf(e1, sizeof e1, entry, "op=rsqrt", dev.name, dev.cc_major, dev.cc_minor, dev.driver_version,
             climb_build_version, 64, 8, 4, 1, 64, 16, 0);
    snprintf(e2, sizeof e2, entry, "op=axpb", dev.name, dev.cc_major, dev.cc_minor, dev.driver_version,
             climb_build_version, 32, 1, 4, 4, 16, 16, 0);
    snprintf(text, sizeof text, "{\"format\": \"climb wisdom 1\", \"entries\": [%s, %s]}\n", e1, e2);
    test_write_text(path, text);
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS && climb_load_wisdom(h, path) == CLIMB_STATUS_SUCCESS);
    climb_opt_plan q;
    plan_with(&q, sets);
    climb_opt_value vals[16];
    for (long i = 0; i < climb_opt_plan_combos(&q); i++) {
        climb_opt_plan_combo(&q, i, vals);
        climb_tuning_key key = {CLIMB_SHAPE2(256, 256), CLIMB_F32, vals};
        climb_call call;
        EXPECT(climb_call_begin(h, w, &key, &call) == CLIMB_STATUS_SUCCESS);
        const int rsqrt = vals[opt("op")].choice == 1;
        EXPECT_MSG(rsqrt ? call.values[0] == 64 && call.values[1] == 8 : call.values[0] == 32 && call.values[3] == 4,
                   "%s: %d %d", rsqrt ? "rsqrt" : "axpb", call.values[0], call.values[1]);
        climb_call_end(&call, cudaSuccess);
    }
    /* a class the file does not hold runs the defaults of the case */
    test_write_text(path, "{\"format\": \"climb wisdom 1\", \"entries\": []}\n");
    EXPECT(climb_load_wisdom(h, path) == CLIMB_STATUS_SUCCESS);
    climb_opt_plan_combo(&q, 1, vals);
    climb_tuning_key key = {CLIMB_SHAPE2(256, 256), CLIMB_F32, vals};
    climb_call call;
    EXPECT(climb_call_begin(h, w, &key, &call) == CLIMB_STATUS_SUCCESS);
    EXPECT(vals[opt("op")].choice == 1 && call.values[0] == 256 && call.values[2] == 2);
    climb_call_end(&call, cudaSuccess);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    climb_opt_plan_free(&q, NULL);
    remove(path);
    rmdir(dir);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_register_workload(w) == 0);
    EXPECT(climb_device_query(0, &dev) == 0);
    const climb_workload *ws[1] = {w};
    EXPECT(climb_extra_ceilings(ws, 1) == CLIMB_MEASURE_SFU);
    EXPECT(climb_measure_ceilings(&dev, climb_extra_ceilings(ws, 1)) == 0 && dev.sfu_gops > 0);
    test_reset();
    test_references();
    test_bench();
    test_budget();
    test_file_input();
    test_tune();
    test_tuning_classes();
    test_check_everything();
    return test_finish("test_gpu_contract");
}
