/* CPU tests of the report: derived figures (rates, the roofline and its binding term, step and cumulative
 * speed-ups, ratio to the vendor and to a bound rung found by kind), rows keyed by shape, type and option values, any number of
 * notes, and the four writers. Writes a sample JSON for check_report_json.py. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/report.h"
#include "io/json.h"
#include "workloads/affine.h"
#include "workloads/reduce/reduce.h"
#include "testing.h"

static climb_row *add(climb_report *r, const climb_workload *w, int rung, climb_dtype t, climb_shape shape,
                      const climb_opt_value *opts, double median_us, climb_row_status st, climb_counts c)
{
    climb_row *row = climb_report_add(r, w, rung, t, &shape, opts, "");
    EXPECT(row != NULL);
    row->status = st;
    row->counts = c;
    row->t.median_us = median_us;
    row->t.min_us = median_us * 0.98;
    row->t.noise_pct = 1.5;
    row->t.samples = 100;
    row->t.batch = 1;
    snprintf(row->reference, sizeof row->reference, "CPU, exact");
    return row;
}

static char *render(climb_report *r, void (*writer)(const climb_report *, FILE *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    writer(r, f);
    fclose(f);
    return buf;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b) + 1e-12; }

/* The fixture: a ladder frozen here (the book's reduction ladder as it was when this test was written), on
 * reduce's dims, types and hooks: a rung added to or renamed in the real reduce changes nothing in this test. */
static const climb_rung_info FIX_RUNGS[] = {
    {.name = "cub_device_reduce", .idea = "vendor: cub::DeviceReduce::Sum", .needs = "", .kind = CLIMB_RUNG_VENDOR},
    {.name = "reduce_interleaved_divergent", .idea = "divergent tree", .needs = "", .kind = CLIMB_RUNG_LADDER,
     .kernels = climb_no_kernels, .published_us = 8054, .published_rate = 2.083},
    {.name = "reduce_interleaved_strided", .idea = "strided index", .needs = "", .kind = CLIMB_RUNG_LADDER,
     .kernels = climb_no_kernels, .published_us = 3456, .published_rate = 4.854},
    {.name = "reduce_seq_addressing", .idea = "sequential addressing", .needs = "", .kind = CLIMB_RUNG_LADDER,
     .kernels = climb_no_kernels, .published_us = 1722, .published_rate = 9.741},
    {.name = "reduce_first_add_load", .idea = "first add during load", .needs = "", .kind = CLIMB_RUNG_LADDER,
     .kernels = climb_no_kernels, .published_us = 965, .published_rate = 17.377},
    {.name = "reduce_unroll_last_warp", .idea = "last warp unrolled", .needs = "", .kind = CLIMB_RUNG_LADDER,
     .kernels = climb_no_kernels, .published_us = 536, .published_rate = 31.289},
    {.name = "reduce_complete_unroll", .idea = "complete unroll", .needs = "", .kind = CLIMB_RUNG_LADDER,
     .kernels = climb_no_kernels, .published_us = 381, .published_rate = 43.996},
    {.name = "reduce_multi_element", .idea = "several elements a thread", .needs = "", .kind = CLIMB_RUNG_LADDER,
     .kernels = climb_no_kernels, .published_us = 268, .published_rate = 62.671},
    {.name = "reduce_warp_shuffle", .idea = "warp shuffles", .needs = "", .kind = CLIMB_RUNG_LADDER,
     .kernels = climb_no_kernels},
    {.name = "reduce_vectorized_single_pass", .idea = "16-byte loads, one pass", .needs = "", .kind = CLIMB_RUNG_BEST,
     .kernels = climb_no_kernels},
};
static const climb_rung_info *fix_rung(int i) { return &FIX_RUNGS[i]; }
static climb_workload fixture_w;

/* The fixture workload, made once. */
static const climb_workload *fixture(void)
{
    if (!fixture_w.name) {
        fixture_w = climb_reduce_workload;
        fixture_w.rung = fix_rung;
        fixture_w.n_rungs = CLIMB_COUNT(FIX_RUNGS);
        fixture_w.tuning = NULL; /* nothing to tune: the report needs no tuning */
        fixture_w.set_tuning = NULL;
    }
    return &fixture_w;
}

/* A ladder with a bound rung (the fixture's table with a copy inserted after the vendor): the bound is outside the
 * step and cumulative columns, and every row gets its ratio to it. */
static climb_rung_info bound_rungs[32];
static int n_bound_rungs;
static const climb_rung_info *bound_rung_at(int i) { return &bound_rungs[i]; }

static void test_bound(const climb_device_info *dev)
{
    climb_workload w = *fixture();
    n_bound_rungs = w.n_rungs + 1;
    bound_rungs[0] = *w.rung(0);
    bound_rungs[1] = *w.rung(1);
    bound_rungs[1].name = "copy_bound";
    bound_rungs[1].kind = CLIMB_RUNG_BOUND;
    for (int i = 1; i < w.n_rungs; i++)
        bound_rungs[i + 1] = *w.rung(i);
    w.rung = bound_rung_at;
    w.n_rungs = n_bound_rungs;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(&w, msg, sizeof msg) == 0, "%s", msg);
    const int best = climb_best_rung(&w);

    climb_report r;
    climb_report_init(&r, "bench", 7, 0, dev);
    const climb_shape s = CLIMB_SHAPE1(1000);
    const climb_counts c = {4000, 4000, 0, 0, 0, 0, 0, CLIMB_TENSOR_NONE};
    climb_row *v = add(&r, &w, 0, CLIMB_F32, s, NULL, 12.0, CLIMB_ROW_OK, c);
    climb_row *b = add(&r, &w, 1, CLIMB_F32, s, NULL, 10.0, CLIMB_ROW_OK, c);
    climb_row *l1 = add(&r, &w, 2, CLIMB_F32, s, NULL, 40.0, CLIMB_ROW_OK, c);
    climb_row *l2 = add(&r, &w, 3, CLIMB_F32, s, NULL, 20.0, CLIMB_ROW_OK, c);
    climb_row *top = add(&r, &w, best, CLIMB_F32, s, NULL, 10.5, CLIMB_ROW_OK, c);
    climb_report_derive(&r);
    EXPECT(isnan(b->step) && isnan(b->cumulative) && near(b->vs_bound, 1.0) && near(b->vs_vendor, 1.2));
    EXPECT(isnan(v->step) && isnan(v->cumulative) && near(v->vs_bound, 10.0 / 12.0));
    EXPECT(isnan(l1->step) && near(l1->cumulative, 1.0) && near(l1->vs_bound, 0.25)); /* the bound is not a step */
    EXPECT(near(l2->step, 2.0) && near(l2->cumulative, 2.0) && near(l2->vs_bound, 0.5));
    EXPECT(near(top->cumulative, 40.0 / 10.5) && near(top->vs_bound, 10.0 / 10.5));

    char *table = render(&r, climb_report_table);
    EXPECT(strstr(table, "x bound") != NULL && strstr(table, "copy_bound [bound]") != NULL);
    EXPECT(strstr(table, "0.95x") != NULL); /* the best at 10/10.5 of the bound */
    free(table);
    char *md = render(&r, climb_report_md);
    EXPECT(strstr(md, "| × cub_device_reduce | × copy_bound |") != NULL && strstr(md, "|--:|--:|\n") != NULL);
    free(md);
    char *json = render(&r, climb_report_json);
    EXPECT(strstr(json, "\"kind\": \"bound\"") != NULL && strstr(json, "\"vs_bound\": 1, \"setup_ms\"") != NULL);
    free(json);
    climb_report_free(&r);
}

/* A workload's items rate in its own unit (items_rate_scale: "M kernels/s"), 10^9 a second without one; the
 * validator takes no scale without a rate, and no negative one. A workload timed cold without the flush
 * (cold_no_flush) is named in the report's timing line and marked in its registry entry. */
static void test_items_scale(const climb_device_info *dev)
{
    climb_workload w = *fixture();
    w.items_unit = "kernels";
    w.items_rate = "M kernels/s";
    w.items_rate_scale = 1e6;
    w.cold_no_flush = 1;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(&w, msg, sizeof msg) == 0, "%s", msg);
    climb_report r;
    climb_report_init(&r, "bench", 7, 0, dev);
    const climb_counts c = {4000, 4000, 0, 32, 0, 0, 0, CLIMB_TENSOR_NONE};
    climb_row *row = add(&r, &w, climb_best_rung(&w), CLIMB_F32, (climb_shape)CLIMB_SHAPE1(1000), NULL, 20.0,
                         CLIMB_ROW_OK, c);
    climb_report_derive(&r);
    EXPECT_MSG(near(row->items_rate, 32 / 20e-6 / 1e6), "%g", row->items_rate); /* 1.6 M kernels/s */
    char *md = render(&r, climb_report_md);
    EXPECT(strstr(md, "| M kernels/s |") != NULL && strstr(md, "| 1.600 |") != NULL);
    char head[200];
    snprintf(head, sizeof head, "cold (L2 flushed before each sample; %s: no flush, each sample from an idle GPU) "
                                "timing", w.name);
    EXPECT_MSG(strstr(md, head) != NULL, "%s", md);
    free(md);
    char *json = render(&r, climb_report_json);
    EXPECT(strstr(json, "\"cold_flush\": false") != NULL);
    free(json);
    climb_report_free(&r);
    w.items_rate_scale = -1;
    EXPECT(climb_workload_validate(&w, msg, sizeof msg) != 0 && strstr(msg, "items_rate_scale") != NULL);
    w.items_rate_scale = 1e6;
    w.items_unit = w.items_rate = NULL;
    EXPECT(climb_workload_validate(&w, msg, sizeof msg) != 0 && strstr(msg, "items_rate_scale") != NULL);
}

/* Several vendor rungs (cuSPARSE's algorithms): every row is compared with the fastest verified one of its case.
 * A workload with a setup hook gets the setup columns, "-" where a rung built nothing. */
static int fake_setup(const climb_case *c, int rung, climb_setup *out)
{
    (void)c;
    (void)rung;
    (void)out;
    return 0;
}

static void test_vendors_and_setup(const climb_device_info *dev)
{
    climb_workload w = *fixture();
    n_bound_rungs = w.n_rungs + 1;
    bound_rungs[0] = *w.rung(0);
    bound_rungs[1] = *w.rung(0);
    bound_rungs[1].name = "second_vendor";
    for (int i = 1; i < w.n_rungs; i++)
        bound_rungs[i + 1] = *w.rung(i);
    w.rung = bound_rung_at;
    w.n_rungs = n_bound_rungs;
    w.setup = fake_setup;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(&w, msg, sizeof msg) == 0, "%s", msg);
    const int best = climb_best_rung(&w);
    climb_report r;
    climb_report_init(&r, "bench", 7, 0, dev);
    const climb_shape s = CLIMB_SHAPE1(1000), s2 = CLIMB_SHAPE1(2000);
    const climb_counts c = {4000, 4000, 0, 0, 0, 0, 0, CLIMB_TENSOR_NONE};
    climb_row *v0 = add(&r, &w, 0, CLIMB_F32, s, NULL, 12.0, CLIMB_ROW_OK, c);
    climb_row *v1 = add(&r, &w, 1, CLIMB_F32, s, NULL, 8.0, CLIMB_ROW_OK, c);
    climb_row *top = add(&r, &w, best, CLIMB_F32, s, NULL, 10.0, CLIMB_ROW_OK, c);
    top->has_setup = 1;
    top->setup.ms = 1.25;
    top->setup.bytes = 3.5e6;
    /* Another case: its faster second vendor failed, so the first one is the bar. */
    add(&r, &w, 0, CLIMB_F32, s2, NULL, 12.0, CLIMB_ROW_OK, c);
    add(&r, &w, 1, CLIMB_F32, s2, NULL, 6.0, CLIMB_ROW_WRONG, c);
    climb_row *top2 = add(&r, &w, best, CLIMB_F32, s2, NULL, 10.0, CLIMB_ROW_OK, c);
    climb_report_derive(&r);
    EXPECT(near(v0->vs_vendor, 8.0 / 12.0) && near(v1->vs_vendor, 1.0) && near(top->vs_vendor, 0.8));
    EXPECT(near(top2->vs_vendor, 1.2));
    /* A second vendor beside the bar (another algorithm): faster, but no row's ratio is to it. */
    bound_rungs[1].beside = 1;
    EXPECT_MSG(climb_workload_validate(&w, msg, sizeof msg) == 0, "%s", msg);
    climb_report_derive(&r);
    EXPECT(near(v1->vs_vendor, 12.0 / 8.0) && near(top->vs_vendor, 1.2) && near(v0->vs_vendor, 1.0));
    char *besides = render(&r, climb_report_md);
    EXPECT(strstr(besides, "`second_vendor [vendor, beside the bar]`") != NULL);
    EXPECT(strstr(besides, "| × cub_device_reduce |") != NULL); /* one bar left: named */
    free(besides);
    bound_rungs[0].beside = 1; /* the first vendor is the bar */
    climb_workload_validate(&w, msg, sizeof msg);
    EXPECT_MSG(strstr(msg, "the first vendor rung is the bar") != NULL, "%s", msg);
    bound_rungs[0].beside = 0;
    bound_rungs[best].beside = 1;
    climb_workload_validate(&w, msg, sizeof msg);
    EXPECT_MSG(strstr(msg, "beside the bar but not a vendor rung") != NULL, "%s", msg);
    bound_rungs[best].beside = 0;
    bound_rungs[1].beside = 0;
    climb_report_derive(&r);
    char *table = render(&r, climb_report_table);
    EXPECT(strstr(table, "setup ms  setup MB") != NULL && strstr(table, "     1.25       3.5") != NULL);
    free(table);
    char *md = render(&r, climb_report_md);
    EXPECT(strstr(md, "| × vendor's best | setup ms | setup MB |") != NULL && strstr(md, " | 1.25 | 3.5 |\n") != NULL);
    EXPECT(strstr(md, " | - | - |\n") != NULL);
    free(md);
    char *json = render(&r, climb_report_json);
    EXPECT(strstr(json, "\"setup_ms\": 1.25, \"setup_bytes\": 3500000}") != NULL);
    EXPECT(strstr(json, "\"setup_ms\": null, \"setup_bytes\": null}") != NULL);
    free(json);
    char *csv = render(&r, climb_report_csv);
    EXPECT(strstr(csv, ",1.25,3500000,") != NULL);
    free(csv);
    climb_report_free(&r);
}

/* The main command's ending: a line a workload (the best rung's geometric-mean ratio to the vendor, its range and
 * the median roofline share; a workload without a vendor against its bound), the GPU's folder name, and the
 * committed results' folder nearest to a GPU. */
static void write_devices(const char *dir, const char *name, const char *cc, int sms, double bw)
{
    char path[512], text[1024];
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/devices.json", dir);
    snprintf(text, sizeof text,
             "[{\"tool\": \"climb\", \"device\": {\"name\": \"%s\", \"compute_capability\": \"%s\", \"sms\": %d, "
             "\"theoretical\": {\"bandwidth_gbs\": %g, \"ffma_gflops\": 1}}}]\n",
             name, cc, sms, bw);
    test_write_text(path, text);
}

static void test_summary(const climb_device_info *dev)
{
    climb_workload w = *fixture();
    const int best = climb_best_rung(&w), vendor = climb_vendor_rung(&w);
    climb_report r;
    climb_report_init(&r, "bench", 7, 0, dev);
    const climb_counts c = {4e6, 4, 1e6, 0, 0, 0, 0, CLIMB_TENSOR_NONE};
    const size_t sizes[3] = {1000000, 2000000, 4000000};
    const double vend[3] = {10, 20, 40}, mine[3] = {8, 20, 50}; /* ratios 1.25, 1, 0.8: geometric mean 1 */
    for (int i = 0; i < 3; i++) {
        add(&r, &w, vendor, CLIMB_F32, (climb_shape)CLIMB_SHAPE1(sizes[i]), NULL, vend[i], CLIMB_ROW_OK, c);
        add(&r, &w, best, CLIMB_F32, (climb_shape)CLIMB_SHAPE1(sizes[i]), NULL, mine[i], CLIMB_ROW_OK, c);
    }
    add(&r, &w, 1, CLIMB_F32, (climb_shape)CLIMB_SHAPE1(sizes[0]), NULL, 99, CLIMB_ROW_WRONG, c);
    climb_report_derive(&r);
    char *text = render(&r, climb_report_summary);
    EXPECT_MSG(strstr(text, "reduce_vectorized_single_pass") && strstr(text, "1.00x cub_device_reduce (0.80-1.25, 3 cases)") &&
                   strstr(text, "(1 row wrong or failed)"),
               "%s", text);
    EXPECT(count_lines(text) == 2); /* the head and one workload */
    free(text);
    climb_report_free(&r);

    char slug[64];
    climb_gpu_slug("NVIDIA H100 80GB HBM3", slug, sizeof slug);
    EXPECT_MSG(strcmp(slug, "h100-80gb-hbm3") == 0, "%s", slug);
    climb_gpu_slug("NVIDIA H200", slug, sizeof slug);
    EXPECT(strcmp(slug, "h200") == 0);
    climb_gpu_slug("  Tesla  K40c!! ", slug, sizeof slug);
    EXPECT_MSG(strcmp(slug, "tesla-k40c") == 0, "%s", slug);
    climb_gpu_slug("***", slug, sizeof slug);
    EXPECT(strcmp(slug, "gpu") == 0);
    climb_gpu_slug("NVIDIA GeForce RTX 4090", slug, 8);
    EXPECT(strcmp(slug, "geforce") == 0 && strlen(slug) == 7);

    char dir[] = "/tmp/climb_results_XXXXXX", sub[600], out[700], why[300];
    EXPECT(mkdtemp(dir) != NULL);
    climb_device_info me = *dev;
    snprintf(me.name, sizeof me.name, "NVIDIA H100 PCIe");
    me.cc_major = 9;
    me.cc_minor = 0;
    me.sms = 114;
    me.peak_bw_gbs = 2039;
    EXPECT(climb_results_nearest(&me, dir, out, sizeof out, why, sizeof why) == -1); /* no folder with a GPU yet */
    snprintf(sub, sizeof sub, "%s/a100", dir);
    write_devices(sub, "NVIDIA A100-SXM4-80GB", "8.0", 108, 2039);
    snprintf(sub, sizeof sub, "%s/h200", dir);
    write_devices(sub, "NVIDIA H200", "9.0", 132, 4800);
    snprintf(sub, sizeof sub, "%s/h100-80gb-hbm3", dir);
    write_devices(sub, "NVIDIA H100 80GB HBM3", "9.0", 132, 3352);
    snprintf(sub, sizeof sub, "%s/not-a-gpu", dir);
    mkdir(sub, 0777); /* a folder without devices.json: not a GPU's */
    EXPECT(climb_results_nearest(&me, dir, out, sizeof out, why, sizeof why) == 0);
    EXPECT_MSG(strstr(out, "/h100-80gb-hbm3") && strstr(why, "nearest"), "%s: %s", out, why); /* cc, then bandwidth */
    snprintf(me.name, sizeof me.name, "NVIDIA H200");
    EXPECT(climb_results_nearest(&me, dir, out, sizeof out, why, sizeof why) == 0);
    EXPECT_MSG(strstr(out, "/h200") && strstr(why, "this GPU"), "%s: %s", out, why); /* the same GPU first */
    me.cc_major = 8;
    snprintf(me.name, sizeof me.name, "NVIDIA A10");
    EXPECT(climb_results_nearest(&me, dir, out, sizeof out, why, sizeof why) == 0 && strstr(out, "/a100"));
    EXPECT(climb_results_nearest(&me, "/nonexistent/climb", out, sizeof out, why, sizeof why) == -1 &&
           strstr(why, "no results folder"));
    const char *subs[] = {"a100", "h200", "h100-80gb-hbm3"};
    for (int i = 0; i < 3; i++) {
        snprintf(sub, sizeof sub, "%s/%s/devices.json", dir, subs[i]);
        remove(sub);
        snprintf(sub, sizeof sub, "%s/%s", dir, subs[i]);
        rmdir(sub);
    }
    snprintf(sub, sizeof sub, "%s/not-a-gpu", dir);
    rmdir(sub);
    rmdir(dir);
}

/* The rows of a JSON report read back (as climb bench reads a child process's, climb_report_add_json_rows): every
 * row of r's two workloads the same after the trip, the derived figures too; rows of another workload, a rung that
 * is not there and a mangled shape refused, naming the row. */
static void test_json_rows(climb_report *r, const climb_device_info *dev)
{
    char *json = render(r, climb_report_json), err[300];
    climb_json *root = climb_json_parse(json, strlen(json), err, sizeof err);
    EXPECT_MSG(root != NULL, "%s", err);
    const climb_json *results = climb_json_get(root, "results");
    climb_report back;
    climb_report_init(&back, "bench", 1234, 0, dev);
    const climb_workload *ws[2] = {r->rows[0].w, NULL};
    for (int i = 0; i < r->n_rows && !ws[1]; i++)
        if (r->rows[i].w != ws[0])
            ws[1] = r->rows[i].w;
    EXPECT(ws[1] != NULL);
    /* one workload's rows at a time, as a child reports one: the others are refused */
    int failures = 0, wrong = 0;
    for (int k = 0; k < 2 && ws[k]; k++) {
        climb_json only = *results;
        climb_json *items = malloc(sizeof *items * (size_t)(results->n ? results->n : 1));
        only.items = items;
        only.n = 0;
        for (int i = 0; i < results->n; i++)
            if (r->rows[i].w == ws[k])
                items[only.n++] = results->items[i];
        EXPECT(climb_report_add_json_rows(&back, ws[k], &only, &failures, err, sizeof err) == only.n);
        if (k == 0)
            EXPECT_MSG(climb_report_add_json_rows(&back, ws[1], results, NULL, err, sizeof err) == -1 &&
                           strstr(err, "results[0]: not a row of"),
                       "%s", err);
        free(items);
    }
    for (int i = 0; i < r->n_rows; i++)
        wrong += r->rows[i].status == CLIMB_ROW_WRONG || r->rows[i].status == CLIMB_ROW_ERROR;
    EXPECT_MSG(failures == wrong, "%d failures read back, %d in the report", failures, wrong);
    /* the refused rows above added nothing: the rows in the order of the workloads */
    EXPECT(back.n_rows == r->n_rows);
    climb_report_derive(&back);
    int at = 0;
    for (int k = 0; k < 2 && ws[k]; k++)
        for (int i = 0; i < r->n_rows; i++) {
            const climb_row *a = &r->rows[i];
            if (a->w != ws[k])
                continue;
            const climb_row *b = &back.rows[at++];
            const int same_num = (isnan(a->t.median_us) && isnan(b->t.median_us)) || near(b->t.median_us, a->t.median_us) ||
                                 a->status != CLIMB_ROW_OK;
            EXPECT_MSG(b->w == a->w && b->rung == a->rung && b->type == a->type && b->shape.ndims == a->shape.ndims &&
                           memcmp(b->shape.d, a->shape.d, sizeof a->shape.d[0] * (size_t)a->shape.ndims) == 0 &&
                           climb_opt_values_equal(a->w->options, a->w->n_options, a->opts, b->opts) &&
                           b->status == a->status && strcmp(b->note, a->note) == 0 &&
                           strcmp(b->reference, a->reference) == 0 && same_num && b->wall == a->wall &&
                           b->own_counts == a->own_counts && near(b->counts.bytes_read, a->counts.bytes_read) &&
                           near(b->counts.items, a->counts.items) && b->t.samples == a->t.samples,
                       "row %d (%s %s) differs after the trip", i, a->w->name, a->w->rung(a->rung)->name);
            if (a->status == CLIMB_ROW_OK)
                EXPECT_MSG((isnan(a->gbs) ? isnan(b->gbs) : near(b->gbs, a->gbs)) &&
                               (isnan(a->vs_vendor) ? isnan(b->vs_vendor) : fabs(b->vs_vendor - a->vs_vendor) < 1e-6),
                           "row %d's derived figures differ after the trip", i);
        }
    /* a rung that is not there; a shape that is not sizes */
    const char *bad_text = "[{\"workload\": \"affine\", \"rung\": \"no_such\", \"type\": \"f32\", \"shape\": [1, 2]}]";
    climb_json *bad = climb_json_parse(bad_text, strlen(bad_text), err, sizeof err);
    EXPECT_MSG(bad != NULL, "%s", err);
    EXPECT(climb_report_add_json_rows(&back, &climb_affine_workload, bad, NULL, err, sizeof err) == -1 &&
           strstr(err, "rung 'no_such'"));
    climb_json_free(bad);
    bad_text = "[{\"workload\": \"affine\", \"rung\": \"0\", \"type\": \"f32\", \"shape\": [1, -2]}]";
    bad = climb_json_parse(bad_text, strlen(bad_text), err, sizeof err);
    EXPECT(bad && climb_report_add_json_rows(&back, &climb_affine_workload, bad, NULL, err, sizeof err) == -1 &&
           strstr(err, "shape[1] is not a size"));
    climb_json_free(bad);
    climb_report_free(&back);
    climb_json_free(root);
    free(json);
}

int main(void)
{
    climb_device_info dev;
    memset(&dev, 0, sizeof dev);
    snprintf(dev.name, sizeof dev.name, "Test GPU \"quoted\"");
    dev.cc_major = 9;
    dev.sms = 132;
    dev.measured = 1;
    dev.read_gbs = 3000;
    dev.copy_gbs = 2800;
    dev.write_gbs = climb_write_gbs(dev.copy_gbs, dev.read_gbs);
    dev.peak_bw_gbs = 3352;
    dev.ffma_gflops = 60000;
    dev.dfma_gflops = 30000;
    dev.sfu_gops = 1000;
    dev.peak_ffma_gflops = 67000;
    /* NVML's view: clocks below their maxima, a power cap and a thermal slowdown, and an unnamed bit */
    dev.nvml = (climb_nvml){1, 1755, 2619, 1980, 2619, 1980, 1980, 700, 700, 512.5, 61, 1, 0x4ull | 0x20ull | 0x10000ull};
    {
        char buf[600];
        climb_nvml_reasons(0, buf, sizeof buf);
        EXPECT(strcmp(buf, "none") == 0);
        climb_nvml_reasons(dev.nvml.reasons, buf, sizeof buf);
        EXPECT_MSG(strcmp(buf, "software power cap, software thermal slowdown, other (0x10000)") == 0, "%s", buf);
        climb_nvml_reasons(0x4, buf, 10); /* cut, still terminated */
        EXPECT(strlen(buf) == 9);
        climb_nvml_line(&dev.nvml, buf, sizeof buf);
        EXPECT_MSG(strstr(buf, "SM clock 1755 of 1980 MHz") && strstr(buf, "power limit 700 W (the default)") &&
                   strstr(buf, "drawing 512 W, 61 C") && strstr(buf, "held by: software power cap"), "%s", buf);
        climb_nvml none = {0};
        climb_nvml_line(&none, buf, sizeof buf);
        EXPECT(strstr(buf, "NVML not available") != NULL);
    }
    /* A copy's time from the derived write rate is the copy's own: B/read + B/write = 2B/copy. */
    EXPECT(near(1.0 / 3000 + 1.0 / dev.write_gbs, 2.0 / 2800));
    EXPECT(climb_write_gbs(100, 40) == 100); /* inconsistent measurements fall back to the copy rate */

    climb_report r;
    climb_report_init(&r, "bench", 1234, 0, &dev);
    EXPECT(strlen(r.date) == 20 && r.date[19] == 'Z');
    EXPECT(r.git_commit[0] != '\0');
    const climb_workload *w = fixture();
    const int best = climb_best_rung(w), vendor = climb_vendor_rung(w);
    const climb_shape s22 = CLIMB_SHAPE1((size_t)1 << 22);
    const climb_counts c22 = {16777216.0, 4.0, 0, 0, 0, 0, 0, CLIMB_TENSOR_NONE};
    climb_row *v = add(&r, w, vendor, CLIMB_I32, s22, NULL, 10.0, CLIMB_ROW_OK, c22);
    climb_row *r1 = add(&r, w, 1, CLIMB_I32, s22, NULL, 100.0, CLIMB_ROW_OK, c22);
    climb_row *r2 = add(&r, w, 2, CLIMB_I32, s22, NULL, 50.0, CLIMB_ROW_OK, c22);
    climb_row *r3 = add(&r, w, 3, CLIMB_I32, s22, NULL, 0, CLIMB_ROW_REFUSED, c22);
    snprintf(r3->note, sizeof r3->note, "needs n a multiple of 512, \"really\"");
    climb_row *r4 = add(&r, w, 4, CLIMB_I32, s22, NULL, 0, CLIMB_ROW_WRONG, c22);
    snprintf(r4->note, sizeof r4->note, "[0] = 5, expected 7");
    climb_row *b = add(&r, w, best, CLIMB_I32, s22, NULL, 8.0, CLIMB_ROW_OK, c22);
    /* Another size: its rows must not borrow this size's first rung or vendor. */
    climb_row *other = add(&r, w, best, CLIMB_I32, (climb_shape)CLIMB_SHAPE1(1000), NULL, 4.0, CLIMB_ROW_OK, c22);

    /* The test workload: two dims, options, f32 bound by the SFU, f64 by DFMA, and one case whose options differ. */
    const climb_workload *a = &climb_affine_workload;
    climb_opt_plan plan;
    char err[200];
    EXPECT(climb_opt_plan_init(&plan, a->options, a->n_options, err, sizeof err) == 0);
    EXPECT(climb_opt_plan_set(&plan, climb_opt_find(a->options, a->n_options, "op"), "rsqrt", 0, err, sizeof err) == 0);
    climb_opt_value o0[8], o1[8];
    climb_opt_plan_combo(&plan, 0, o0); /* pad=0 */
    climb_opt_plan_combo(&plan, 1, o1); /* pad=3 */
    const climb_shape m = CLIMB_SHAPE2(1000, 1000);
    const int an = climb_best_rung(a), av = climb_vendor_rung(a);
    const climb_counts sfu = {4e6, 4e6, 4e6, 1e6, 1e7, 0, 0, CLIMB_TENSOR_NONE}, dfma = {8e6, 8e6, 1e9, 1e6, 0, 0, 0, CLIMB_TENSOR_NONE};
    climb_row *as = add(&r, a, an, CLIMB_F32, m, o0, 20.0, CLIMB_ROW_OK, sfu);
    climb_row *ad = add(&r, a, an, CLIMB_F64, m, o0, 50.0, CLIMB_ROW_OK, dfma);
    climb_row *av1 = add(&r, a, av, CLIMB_F32, m, o1, 40.0, CLIMB_ROW_OK, sfu);
    climb_row *an1 = add(&r, a, an, CLIMB_F32, m, o1, 20.0, CLIMB_ROW_OK, sfu);
    climb_opt_plan_free(&plan, NULL);
    /* contract v3: a row with the rung's own counts, a row timed by the wall clock (a rung with a host part) */
    av1->own_counts = 1;
    av1->counts.bytes_read = 123e6; /* its own: the case's line must take the case's counts (an1's), not these */
    ad->wall = 1;

    /* Notes: no cap. */
    for (int i = 0; i < 20; i++)
        EXPECT(climb_report_note(&r, "note number %d", i) == 0);
    EXPECT(r.n_notes == 20);
    climb_report_derive(&r);

    EXPECT(isnan(v->step) && isnan(v->cumulative));
    EXPECT(fabs(v->vs_vendor - 1.0) < 1e-12);
    EXPECT(isnan(r1->step));
    EXPECT(fabs(r1->cumulative - 1.0) < 1e-12);
    EXPECT(fabs(r2->step - 2.0) < 1e-12);
    EXPECT(fabs(r2->cumulative - 2.0) < 1e-12);
    EXPECT(fabs(r2->vs_vendor - 0.2) < 1e-12);
    EXPECT(isnan(b->step)); /* the rung before the best was not run */
    EXPECT(fabs(b->cumulative - 12.5) < 1e-12);
    EXPECT(fabs(b->vs_vendor - 1.25) < 1e-12);
    EXPECT(near(b->gbs, 16777220.0 / 8e-6 / 1e9));
    EXPECT(isnan(b->gflops) && isnan(b->items_rate));
    /* Memory roofline: bytes read over the read ceiling plus bytes written over the write rate. */
    double roof = (16777216.0 / 3000e9 + 4.0 / (dev.write_gbs * 1e9)) * 1e6;
    EXPECT(near(b->roofline_us, roof) && strcmp(b->bound, "memory") == 0);
    EXPECT(near(b->pct_roofline, 100.0 * roof / 8.0));
    EXPECT(isnan(r3->gbs) && isnan(r4->vs_vendor) && isnan(r3->pct_roofline));
    EXPECT(isnan(other->cumulative) && isnan(other->vs_vendor));
    /* SFU and DFMA terms; the f64 case is judged on DFMA, not FFMA. */
    EXPECT(strcmp(as->bound, "sfu") == 0 && near(as->roofline_us, 10.0) && near(as->pct_roofline, 50.0));
    EXPECT(near(as->special_rate, 1e7 / 20e-6 / 1e9) && near(as->items_rate, 1e6 / 20e-6 / 1e9));
    EXPECT(strcmp(ad->bound, "dfma") == 0 && near(ad->roofline_us, 1e9 / 30000e9 * 1e6));
    /* Rows of different option values are different cases: the pad=3 row compares with its own vendor. */
    EXPECT(isnan(as->vs_vendor) && near(an1->vs_vendor, 2.0) && near(av1->vs_vendor, 1.0));
    /* Without the SFU ceiling a case that needs it has no roofline. */
    {
        climb_device_info d2 = dev;
        d2.sfu_gops = 0;
        const char *bound;
        EXPECT(isnan(climb_roofline_us(&d2, NAN, &sfu, CLIMB_F32, &bound)));
        d2.measured = 0;
        EXPECT(isnan(climb_roofline_us(&d2, NAN, &c22, CLIMB_I32, &bound)) && strcmp(bound, "") == 0);
    }
    /* Flops on the tensor cores run against their ceiling in their format, and the FMA's no longer applies: 1e9
     * useful flops done as 3e9 TF32 tensor flops at 400 TFLOP/s take 7.5 us, not the 16.7 us FFMA would. Without
     * the ceiling measured, no roofline; BF16 on its own ceiling; memory still wins where it is slower. */
    {
        climb_device_info d3 = dev;
        d3.tensor_bf16_gflops = 800000;
        d3.tensor_tf32_gflops = 400000;
        const char *bound;
        const climb_counts tf = {1e3, 1e3, 1e9, 0, 0, 0, 3e9, CLIMB_TENSOR_TF32};
        EXPECT(near(climb_roofline_us(&d3, NAN, &tf, CLIMB_F32, &bound), 7.5) && strcmp(bound, "tensor tf32") == 0);
        const climb_counts bf = {1e3, 1e3, 1e9, 0, 0, 0, 1e9, CLIMB_TENSOR_BF16};
        EXPECT(near(climb_roofline_us(&d3, NAN, &bf, CLIMB_F32, &bound), 1.25) && strcmp(bound, "tensor bf16") == 0);
        const climb_counts wide = {3e7, 0, 1e9, 0, 0, 0, 1e9, CLIMB_TENSOR_BF16};
        EXPECT(near(climb_roofline_us(&d3, NAN, &wide, CLIMB_F32, &bound), 10.0) && strcmp(bound, "memory") == 0);
        d3.tensor_tf32_gflops = 0;
        EXPECT(isnan(climb_roofline_us(&d3, NAN, &tf, CLIMB_F32, &bound)));
        EXPECT(strcmp(climb_tensor_format_name(CLIMB_TENSOR_TF32), "tf32") == 0 &&
               climb_tensor_format_parse("bf16") == CLIMB_TENSOR_BF16 &&
               climb_tensor_format_parse("fp8") == CLIMB_TENSOR_NONE);
    }

    char *table = render(&r, climb_report_table);
    EXPECT(strstr(table, w->rung(best)->name) != NULL);
    EXPECT(strstr(table, "[best]") != NULL && strstr(table, "[vendor]") != NULL);
    EXPECT(strstr(table, "affine_cub_transform [vendor; own counts]") != NULL);
    EXPECT(strstr(table, "affine_tuned [best; host part: wall clock]") != NULL);
    EXPECT(strstr(table, "2097.2") != NULL);  /* GB/s of the best rung */
    EXPECT(strstr(table, "12.50x") != NULL);  /* its cumulative speedup */
    EXPECT(strstr(table, "refused: needs n a multiple of 512") != NULL);
    EXPECT(strstr(table, "WRONG: [0] = 5, expected 7") != NULL);
    EXPECT(strstr(table, "seed 1234") != NULL);
    EXPECT(strstr(table, "reduce i32, n=2^22: 16.78 MB read, 4 B written") != NULL);
    EXPECT(strstr(table, "affine f32, rows,cols=1000x1000, alpha=1.5 beta=7 pad=3 op=rsqrt dist=uniform") != NULL);
    EXPECT(strstr(table, "Gelem/s") != NULL && strstr(table, "Gsfu/s") != NULL && strstr(table, "(sfu)") != NULL);
    EXPECT(strstr(table, "Note: note number 19") != NULL);
    EXPECT(strstr(table, "x bound") == NULL); /* no bound rung: no column */
    free(table);

    test_json_rows(&r, &dev);

    char *csv = render(&r, climb_report_csv);
    EXPECT(count_lines(csv) == 1 + r.n_rows);
    EXPECT(strncmp(csv, "workload,ordinal,rung,kind,", 27) == 0);
    EXPECT(strstr(csv, "\"needs n a multiple of 512, \"\"really\"\"\"") != NULL); /* CSV quoting */
    EXPECT(strstr(csv, ",1000x1000,\"alpha=1.5 beta=7 pad=0 op=rsqrt dist=uniform\",") != NULL);
    /* Every line has as many fields as the header (commas outside quotes). */
    int fields_ok = 1, header_fields = -1, fields = 1, quoted = 0;
    for (const char *p = csv; *p; p++) {
        if (*p == '"')
            quoted = !quoted;
        else if (*p == ',' && !quoted)
            fields++;
        else if (*p == '\n') {
            if (header_fields < 0)
                header_fields = fields;
            else
                fields_ok &= fields == header_fields;
            fields = 1;
        }
    }
    EXPECT_MSG(fields_ok && header_fields == 41, "%d fields", header_fields);
    free(csv);

    char *md = render(&r, climb_report_md);
    char want[200];
    snprintf(want, sizeof want, "| %d | `%s [best]` | 8.00 |", best, w->rung(best)->name);
    EXPECT(strstr(md, want) != NULL);
    EXPECT(strstr(md, "× cub_device_reduce |") != NULL && strstr(md, "% of roofline") != NULL);
    EXPECT(strstr(md, "|--:|") != NULL);
    EXPECT_MSG(strstr(md, "123 MB read") == NULL, "a case's line took a row's own counts");
    free(md);

    char *json = render(&r, climb_report_json);
    EXPECT(strstr(json, "\"name\": \"Test GPU \\\"quoted\\\"\"") != NULL);
    EXPECT(strstr(json, "\"step_speedup\": null") != NULL);
    EXPECT(strstr(json, "\"format\": 3") != NULL);
    EXPECT(strstr(json, "\"sm_clock_mhz\": 1755, \"sm_clock_max_mhz\": 1980") != NULL);
    EXPECT(strstr(json, "\"device_set\"") == NULL); /* one GPU: no set */
    free(json);

    /* A run whose cases span GPUs records them and every pair's facts (an unknown one as null). */
    climb_device_info two[2] = {dev, dev};
    two[1].ordinal = 3;
    two[1].nvml.read = 0;
    const climb_p2p p2p[4] = {CLIMB_P2P_UNKNOWN, {1, 0, 1, 390.5, 760, 10.25, 18, 1}, {1, 0, -1, 0, 0, 0, -1, -1},
                              CLIMB_P2P_UNKNOWN};
    EXPECT(climb_report_set_devices(&r, two, p2p, 2) == 0 && r.n_set == 2);
    json = render(&r, climb_report_json);
    const char *set_at = json ? strstr(json, "device_set") : NULL;
    EXPECT_MSG(json && strstr(json, "\"device_set\": {") && strstr(json, "\"peer_access\": [[null, true], [true, null]]") &&
                   strstr(json, "\"p2p_rank\": [[null, 0], [0, null]]") &&
                   strstr(json, "\"native_atomics\": [[null, true], [null, null]]") &&
                   strstr(json, "{\"ordinal\": 3, \"name\": \"Test GPU \\\"quoted\\\"\"") &&
                   strstr(json, "\"nvml_sm_clock_mhz\": null") &&
                   strstr(json, "\"p2p_one_way_gbs\": [[null, 390.5], [null, null]]") &&
                   strstr(json, "\"p2p_both_ways_gbs\": [[null, 760], [null, null]]") &&
                   strstr(json, "\"p2p_latency_us\": [[null, 10.25], [null, null]]") &&
                   strstr(json, "\"nvlinks\": [[null, 18], [null, null]]") &&
                   strstr(json, "\"nvlink_switch\": [[null, true], [null, null]]"),
               "%.600s", set_at ? set_at : "no device_set");
    free(json);
    md = render(&r, climb_report_md);
    EXPECT_MSG(md && strstr(md, "GPUs of the cases that span several: 0 (Test GPU \"quoted\"), 3 (Test GPU "
                                "\"quoted\"); peer access between 2 of 2 ordered pairs; measured copy engines between them: 390 to 390 "
                                "GB/s one way, 760 to 760 GB/s both ways"), "%.400s", md ? md : "");
    free(md);
    /* The link ceiling is the slowest measured pair one way (a pair not measured: none); bytes over the links
     * are judged on it, and a case without them is not. */
    EXPECT(isnan(climb_report_link_gbs(&r))); /* GPU 3 to 0 not measured */
    {
        climb_p2p all[4] = {CLIMB_P2P_UNKNOWN, {1, 0, 1, 390.5, 760, 0, -1, -1}, {1, 0, 1, 300, 600, 0, -1, -1},
                            CLIMB_P2P_UNKNOWN};
        climb_report r2 = r;
        r2.p2p = all;
        EXPECT(near(climb_report_link_gbs(&r2), 300));
        climb_counts link = {.bytes_read = 1e6, .link_bytes = 3e6};
        const char *bound;
        EXPECT(near(climb_roofline_us(&dev, 300, &link, CLIMB_U8, &bound), 10.0) && strcmp(bound, "link") == 0);
        EXPECT(isnan(climb_roofline_us(&dev, NAN, &link, CLIMB_U8, &bound)));
        climb_counts mem = {.bytes_read = 3e9};
        EXPECT(near(climb_roofline_us(&dev, NAN, &mem, CLIMB_U8, &bound), 1000.0) && strcmp(bound, "memory") == 0);
    }
    const char *out = getenv("CLIMB_TEST_JSON_OUT");
    if (out)
        EXPECT(climb_report_write(&r, climb_report_json, out) == 0);
    EXPECT(climb_report_write(&r, climb_report_json, "/nonexistent-dir/x.json") == -1);

    climb_report_free(&r);
    test_bound(&dev);
    test_items_scale(&dev);
    test_vendors_and_setup(&dev);
    test_summary(&dev);
    return test_finish("test_cpu_report");
}
