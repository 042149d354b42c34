/* CPU test of the registry: every registered workload (the built-in ones and the test workload) has a complete,
 * consistent table (climb_workload_validate), and the invariants the CLI, harness, reports and library rely on
 * hold: names unique, vendors first and bounds next, exactly one best rung found by its mark (not its position), every other
 * rung listing its kernels, tuning within its limit. Broken copies of real tables show the validator fails. */
#include <stdlib.h>
#include <string.h>

#include "core/harness.h"
#include "core/tune.h"
#include "core/workload.h"
#include "workloads/affine.h"
#include "workloads/reduce/reduce.h"
#include "workloads/transpose.h"
#include "testing.h"

/* A device as its description alone (no GPU): CC major.minor, `sms` SMs of threads_per_sm threads, 32 blocks,
 * 64 K registers and 228 KB of shared memory (227 a block) each. */
static climb_device_info described_device(int major, int minor, int sms, int threads_per_sm)
{
    climb_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.cc_major = major;
    dev.cc_minor = minor;
    dev.sms = sms;
    dev.max_threads_per_sm = threads_per_sm;
    dev.max_blocks_per_sm = 32;
    dev.regs_per_sm = 65536;
    dev.smem_per_sm = 228 * 1024;
    dev.smem_per_block_optin = 227 * 1024;
    return dev;
}

static void test_every_workload(void)
{
    int n;
    const climb_workload *const *all = climb_workloads(&n);
    EXPECT(n >= 2);
    int saw_affine = 0;
    for (int i = 0; i < n; i++) {
        const climb_workload *w = all[i];
        char msg[4000];
        int problems = climb_workload_validate(w, msg, sizeof msg);
        EXPECT_MSG(problems == 0, "%s", msg);
        for (int j = 0; j < i; j++)
            EXPECT(strcmp(all[j]->name, w->name) != 0);
        /* Vendors first, then bounds, then the ladder; one best, found by its mark; every ladder rung lists its
         * kernels. */
        int best = climb_best_rung(w), first_ladder = climb_first_ladder_rung(w);
        EXPECT(best >= 0 && w->rung(best)->kind == CLIMB_RUNG_BEST && first_ladder >= 0);
        for (int r = 0; r < w->n_rungs; r++) {
            climb_rung_kind k = w->rung(r)->kind;
            EXPECT(climb_rung_on_ladder(w, r) == (r >= first_ladder));
            if (r > 0 && k == CLIMB_RUNG_VENDOR)
                EXPECT(w->rung(r - 1)->kind == CLIMB_RUNG_VENDOR);
            EXPECT(!climb_rung_on_ladder(w, r) || w->rung(r)->kernels != NULL);
            /* a rung that launches from the device is ours (the sanitizer step reads the mark), and the ladders'
             * dynamic-parallelism rungs carry it */
            EXPECT(!w->rung(r)->device_launches || climb_rung_on_ladder(w, r));
            EXPECT_MSG(!strstr(w->rung(r)->name, "dynamic_parallelism") || w->rung(r)->device_launches,
                       "%s/%s launches from the device but is not marked", w->name, w->rung(r)->name);
        }
        if (w->tuning)
            EXPECT(w->tuning->n_params <= CLIMB_MAX_TUNABLES && climb_tuning_count(w->tuning) >= 1);
        saw_affine |= w == &climb_affine_workload;
    }
    EXPECT(saw_affine);
    /* A name is taken once. */
    EXPECT(climb_register_workload(&climb_affine_workload) == -1);
    EXPECT(climb_find_workload("affine") == &climb_affine_workload);
}

/* ---- broken tables: each copy breaks one rule, and validation says so ---- */

static const climb_workload *base;
static climb_rung_info rungs[32];
static int n_rungs;
static const climb_rung_info *rung_at(int i) { return &rungs[i]; }

/* A copy of base whose rungs can be edited. */
static climb_workload copy_of(const climb_workload *w)
{
    base = w;
    n_rungs = w->n_rungs;
    for (int i = 0; i < n_rungs; i++)
        rungs[i] = *w->rung(i);
    climb_workload c = *w;
    c.rung = rung_at;
    return c;
}

static void expect_problem(const climb_workload *w, const char *what)
{
    char msg[4000];
    int p = climb_workload_validate(w, msg, sizeof msg);
    EXPECT_MSG(p >= 1 && strstr(msg, what) != NULL, "wanted '%s', got %d: %s", what, p, msg);
}

static void test_broken(void)
{
    char msg[4000];
    climb_workload c = copy_of(&climb_reduce_workload);
    EXPECT(climb_workload_validate(&c, msg, sizeof msg) == 0); /* the copy itself is fine */

    int best = climb_best_rung(&c);
    rungs[best - 1].kind = CLIMB_RUNG_BEST;
    expect_problem(&c, "2 rungs marked best");
    rungs[best - 1].kind = CLIMB_RUNG_LADDER;
    rungs[best].kind = CLIMB_RUNG_LADDER;
    expect_problem(&c, "0 rungs marked best");
    rungs[best].kind = CLIMB_RUNG_BEST;

    /* A former name is no rung's name today: an old report's rows would read as another rung's. */
    rungs[best].formerly = rungs[1].name;
    expect_problem(&c, "its former name");
    rungs[best].formerly = "an_old_name";
    EXPECT(climb_workload_validate(&c, msg, sizeof msg) == 0);
    rungs[best].formerly = NULL;

    /* The best need not be last: a rung appended after it changes nothing. */
    rungs[n_rungs] = rungs[1];
    rungs[n_rungs].name = "appended_after_best";
    c.n_rungs = n_rungs + 1;
    EXPECT(climb_workload_validate(&c, msg, sizeof msg) == 0);
    EXPECT(climb_best_rung(&c) == best && best != c.n_rungs - 1);
    rungs[n_rungs].kernels = NULL;
    expect_problem(&c, "appended_after_best does not say which kernels it launches");
    rungs[n_rungs].kind = CLIMB_RUNG_VENDOR;
    expect_problem(&c, "vendor rung appended_after_best after a bound or ladder rung");
    rungs[n_rungs].kind = CLIMB_RUNG_BOUND;
    expect_problem(&c, "bound rung appended_after_best after a ladder rung");
    c.n_rungs = n_rungs;

    /* A bound rung goes between the vendors and the ladder, with or without kernels of its own; a vendor after it
     * is refused. */
    {
        climb_workload b = copy_of(&climb_reduce_workload);
        for (int i = n_rungs; i > 1; i--)
            rungs[i] = rungs[i - 1];
        rungs[1] = rungs[2];
        rungs[1].name = "copy_bound";
        rungs[1].kind = CLIMB_RUNG_BOUND;
        rungs[1].kernels = NULL;
        b.n_rungs = n_rungs + 1;
        EXPECT_MSG(climb_workload_validate(&b, msg, sizeof msg) == 0, "%s", msg);
        EXPECT(climb_bound_rung(&b) == 1 && climb_vendor_rung(&b) == 0 && climb_first_ladder_rung(&b) == 2);
        EXPECT(!climb_rung_on_ladder(&b, 0) && !climb_rung_on_ladder(&b, 1) && climb_rung_on_ladder(&b, 2) &&
               climb_rung_on_ladder(&b, climb_best_rung(&b)));
        EXPECT(strcmp(climb_rung_kind_name(CLIMB_RUNG_BOUND), "bound") == 0);
        climb_rung_info v = rungs[0];
        rungs[0] = rungs[1];
        rungs[1] = v;
        char want[200];
        snprintf(want, sizeof want, "vendor rung %s after a bound or ladder rung", rungs[1].name);
        expect_problem(&b, want);
        EXPECT(climb_bound_rung(&climb_reduce_workload) == -1); /* reduce has none */
    }
    c = copy_of(&climb_reduce_workload);

    rungs[2].name = rungs[1].name;
    expect_problem(&c, "appears twice");
    rungs[2] = *climb_reduce_workload.rung(2);
    rungs[3].idea = "";
    expect_problem(&c, "has no idea");
    rungs[3] = *climb_reduce_workload.rung(3);
    rungs[1].published_us = 0;
    rungs[1].published_rate = 0;
    for (int i = 0; i < n_rungs; i++)
        rungs[i].published_us = rungs[i].published_rate = 0;
    expect_problem(&c, "no rung has a published figure");

    c = copy_of(&climb_reduce_workload);
    c.verify = NULL;
    expect_problem(&c, "are all needed");
    c = copy_of(&climb_reduce_workload);
    c.dims[1] = "n";
    expect_problem(&c, "dim n appears twice");
    c = copy_of(&climb_reduce_workload);
    c.types = 0;
    expect_problem(&c, "types must name");
    c = copy_of(&climb_reduce_workload);
    climb_shape wrong[1] = {CLIMB_SHAPE2(4, 4)};
    c.bench_shapes = wrong;
    c.n_bench_shapes = 1;
    expect_problem(&c, "bench_shapes[0] has 2 sizes");

    /* Options: a default that does not parse, a FILE option without a loader. */
    climb_workload a = copy_of(&climb_affine_workload);
    EXPECT(climb_workload_validate(&a, msg, sizeof msg) == 0);
    climb_option opts[16];
    memcpy(opts, a.options, sizeof(climb_option) * (size_t)a.n_options);
    a.options = opts;
    opts[0].def = "oops";
    expect_problem(&a, "a default does not parse");
    opts[0] = climb_affine_workload.options[0];
    a.load = NULL;
    expect_problem(&a, "a FILE option needs load and unload");
    a = copy_of(&climb_affine_workload);
    a.modifies = climb_affine_workload.modifies;
    a.reset = NULL;
    expect_problem(&a, "modifies without reset");

    /* Tuning's built-in values: a function of the device and case, or one fixed set with where it comes from;
     * not both, not neither. */
    {
        c = copy_of(&climb_reduce_workload);
        climb_tuning t = *c.tuning;
        c.tuning = &t;
        /* the smallest SM of the validation's devices: its defaults run on every one */
        const climb_device_info dev = described_device(8, 6, 84, 1536);
        climb_tuning_key key = {c.bench_shapes[0], CLIMB_F32, NULL};
        int fixed[CLIMB_MAX_TUNABLES], got[CLIMB_MAX_TUNABLES];
        const char *from = climb_tuning_defaults(&t, &dev, &key, fixed);
        EXPECT(from && *from);
        t.builtin = fixed;
        t.builtin_why = "fixed for the test";
        expect_problem(&c, "either defaults or builtin");
        t.defaults = NULL;
        EXPECT_MSG(climb_workload_validate(&c, msg, sizeof msg) == 0, "%s", msg);
        memset(got, 0xAB, sizeof got);
        from = climb_tuning_defaults(&t, &dev, &key, got);
        EXPECT(from && strcmp(from, "fixed for the test") == 0 &&
               memcmp(got, fixed, sizeof *got * (size_t)t.n_params) == 0);
        t.builtin_why = "";
        expect_problem(&c, "either defaults or builtin");
        t.builtin_why = "x";
        t.builtin = NULL;
        expect_problem(&c, "either defaults or builtin");
        fixed[0] = -12345; /* a built-in set that is not a candidate */
        t.builtin = fixed;
        expect_problem(&c, "not a candidate");
    }

    /* The fastest at an end of a list of three values or more is said, each such parameter; none ran, nothing. */
    {
        climb_tune_cand cand;
        memset(&cand, 0, sizeof cand);
        climb_tune_result r;
        memset(&r, 0, sizeof r);
        r.w = &climb_reduce_workload; /* block 128..1024, blocks_per_sm 1..16, vecs 1..8 */
        r.cands = &cand;
        r.n_cands = 1;
        r.fastest = -1;
        char edges[300];
        EXPECT(climb_tune_edges(&r, edges, sizeof edges) == 0 && edges[0] == '\0');
        r.fastest = 0;
        cand.values[0] = 1024, cand.values[1] = 4, cand.values[2] = 1;
        EXPECT_MSG(climb_tune_edges(&r, edges, sizeof edges) == 2 &&
                       strcmp(edges, "block=1024, the largest offered; vecs=1, the smallest offered") == 0,
                   "%s", edges);
        cand.values[0] = 256, cand.values[2] = 4;
        EXPECT(climb_tune_edges(&r, edges, sizeof edges) == 0 && edges[0] == '\0');
    }

    /* A workload's own command is a proper name. */
    c = copy_of(&climb_reduce_workload);
    c.command = "two words";
    expect_problem(&c, "command is not a proper name");
    c.command = "sum";
    EXPECT(climb_workload_validate(&c, msg, sizeof msg) == 0);

    /* The GPUs a case spans: none said (one GPU), or 1 <= min <= max <= CLIMB_MAX_DEVICES. */
    c = copy_of(&climb_reduce_workload);
    EXPECT(!climb_spans_devices(&c));
    const int spans[][2] = {{0, 2}, {2, 1}, {-1, 4}, {2, CLIMB_MAX_DEVICES + 1}, {3, 0}};
    for (size_t i = 0; i < sizeof spans / sizeof spans[0]; i++) {
        c.min_devices = spans[i][0];
        c.max_devices = spans[i][1];
        expect_problem(&c, "min_devices");
    }
    c.min_devices = 2;
    c.max_devices = CLIMB_MAX_DEVICES;
    EXPECT(climb_workload_validate(&c, msg, sizeof msg) == 0 && climb_spans_devices(&c));
    c.min_devices = c.max_devices = 1;
    EXPECT(climb_workload_validate(&c, msg, sizeof msg) == 0 && !climb_spans_devices(&c));

    /* Sweeps: the axis is a dim or a numeric option; names are unique; args are not the report paths; an overview
     * row needs args. */
    {
        climb_workload t = climb_transpose_workload;
        EXPECT(climb_workload_validate(&t, msg, sizeof msg) == 0);
        EXPECT(t.n_sweeps >= 1 && climb_find_sweep(&t, "camping") == &t.sweeps[0] && !climb_find_sweep(&t, "x"));
        EXPECT(climb_find_sweep(&climb_reduce_workload, "camping") == NULL);
        climb_sweep sw[3] = {t.sweeps[0], t.sweeps[0], t.sweeps[0]};
        t.sweeps = sw;
        t.n_sweeps = 1;
        sw[0].x = "pad"; /* an int option */
        sw[0].args = NULL; /* drawn from the default bench */
        EXPECT_MSG(climb_workload_validate(&t, msg, sizeof msg) == 0, "%s", msg);
        sw[0].x = "nope";
        expect_problem(&t, "sweep camping: x 'nope' is neither a dim nor a numeric option");
        sw[0].x = "cols";
        sw[0].args = "--size 4x4 --json out.json";
        expect_problem(&t, "sweep camping: args are bench arguments");
        sw[0].args = "--size 4x4";
        sw[0].overview = 1; /* a row in the README's overview: from a run of its own */
        EXPECT_MSG(climb_workload_validate(&t, msg, sizeof msg) == 0, "%s", msg);
        sw[0].args = NULL;
        expect_problem(&t, "sweep camping: an overview row needs a run of its own");
        sw[0].args = "--size 4x4";
        sw[0].overview = 0;
        t.n_sweeps = 2;
        expect_problem(&t, "sweep camping declared twice");
        sw[1].name = "Bad Name";
        expect_problem(&t, "sweep 1 lacks a proper name");
        t.sweeps = NULL;
        expect_problem(&t, "n_sweeps is 2 but sweeps is NULL");
    }

    /* Weak scaling: for a workload spanning GPUs from one, bench arguments without GPUs, sweeps or report paths. */
    {
        climb_workload t = climb_transpose_workload;
        t.weak_scaling = "--size 64x64";
        expect_problem(&t, "weak_scaling is for a workload whose cases span GPUs from one");
        t.min_devices = 1;
        t.max_devices = 8;
        t.weak_scaling = "--size 64x64 --gpus 2";
        expect_problem(&t, "weak_scaling: bench arguments other than the GPUs");
        t.weak_scaling = "--size 64x64 --json w.json";
        expect_problem(&t, "weak_scaling: bench arguments other than the GPUs");
    }

    /* Tuning: a listed candidate outside its parameter's values; more parameters than the limit. */
    climb_tuning tn = *climb_affine_workload.tuning;
    int cands[8 * 7];
    memcpy(cands, tn.candidates, sizeof(int) * 7 * (size_t)tn.n_candidates);
    cands[0] = 33;
    tn.candidates = cands;
    a = copy_of(&climb_affine_workload);
    a.tuning = &tn;
    expect_problem(&a, "block_x=33 is not among the parameter's values");
    tn = *climb_affine_workload.tuning;
    tn.n_params = CLIMB_MAX_TUNABLES + 1;
    expect_problem(&a, "tuning has 17 parameters");
}

/* The tuning contract's own capabilities, on the test workload: more than six parameters, an explicit list, and
 * defaults that see the case. */
static void test_tuning(void)
{
    const climb_tuning *tn = climb_affine_workload.tuning;
    const climb_workload *a = &climb_affine_workload;
    EXPECT(tn->n_params == 7 && tn->candidates != NULL);
    EXPECT(climb_tuning_count(tn) == tn->n_candidates && tn->n_candidates == 8);
    int v[CLIMB_MAX_TUNABLES];
    climb_tuning_values(tn, 2, v);
    EXPECT(v[0] == 128 && v[3] == 4); /* row 2 of the list as written */
    climb_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.max_threads_per_sm = 2048;
    char buf[200];
    EXPECT(climb_tuning_check(tn, &dev, v, buf, sizeof buf) == NULL);
    v[4] = 64; /* every value allowed on its own, but not a listed set */
    const char *why = climb_tuning_check(tn, &dev, v, buf, sizeof buf);
    EXPECT_MSG(why && strstr(why, "not one of the 8 listed candidate sets"), "%s", why ? why : "NULL");
    climb_tuning_format(tn, v, buf, sizeof buf);
    EXPECT(strstr(buf, "block_x=128 block_y=2 rows_per_thread=1 cols_per_thread=4 grid_x=64 grid_y=1024 ldg=1"));
    /* Defaults differ by shape and type. */
    int narrow[CLIMB_MAX_TUNABLES], wide[CLIMB_MAX_TUNABLES], bytes[CLIMB_MAX_TUNABLES];
    climb_tuning_key kn = {CLIMB_SHAPE2(1000, 7), CLIMB_F32, NULL}, kw = {CLIMB_SHAPE2(1000, 1000), CLIMB_F32, NULL},
                     kb = {CLIMB_SHAPE2(1000, 1000), CLIMB_U8, NULL};
    tn->defaults(&dev, &kn, narrow);
    tn->defaults(&dev, &kw, wide);
    tn->defaults(&dev, &kb, bytes);
    EXPECT(narrow[0] == 32 && wide[0] == 128 && bytes[3] == 4 && wide[3] == 1);
    for (const int *d = narrow; d; d = d == narrow ? wide : d == wide ? bytes : NULL)
        EXPECT(climb_tuning_check(tn, &dev, d, buf, sizeof buf) == NULL);

    /* Options that key the tuning (contract v3): affine's op. The class names its value; the defaults see it. */
    climb_workload plain = *a; /* the same without options: no classes */
    plain.options = NULL;
    plain.n_options = 0;
    EXPECT(climb_tuning_has_classes(a) && !climb_tuning_has_classes(&plain));
    climb_opt_plan plan;
    char err[200], cls[128];
    EXPECT(climb_opt_plan_init(&plan, a->options, a->n_options, err, sizeof err) == 0);
    const int op = climb_opt_find(a->options, a->n_options, "op");
    EXPECT(climb_opt_plan_set(&plan, op, "axpb,rsqrt", 0, err, sizeof err) == 0);
    climb_opt_value vals[16];
    EXPECT(climb_opt_plan_combos(&plan) == 4); /* pad 0,3 x op axpb,rsqrt */
    int rsqrt_seen = 0;
    for (long i = 0; i < climb_opt_plan_combos(&plan); i++) {
        climb_opt_plan_combo(&plan, i, vals);
        climb_tuning_key k = {CLIMB_SHAPE2(1000, 1000), CLIMB_F32, vals};
        climb_tuning_class(a, &k, &dev, cls, sizeof cls);
        const int is_rsqrt = vals[op].choice == 1;
        EXPECT_MSG(strcmp(cls, is_rsqrt ? "op=rsqrt" : "op=axpb") == 0, "%s", cls);
        int d[CLIMB_MAX_TUNABLES];
        tn->defaults(&dev, &k, d);
        EXPECT(is_rsqrt ? d[0] == 256 && d[2] == 2 : d[0] == 128 && d[1] == 2);
        rsqrt_seen += is_rsqrt;
    }
    EXPECT(rsqrt_seen == 2);
    climb_tuning_class(a, NULL, &dev, cls, sizeof cls); /* no values: the option's default */
    EXPECT_MSG(strcmp(cls, "op=axpb") == 0, "%s", cls);
    climb_tuning_class(&plain, NULL, &dev, cls, sizeof cls);
    EXPECT(cls[0] == '\0');
    climb_opt_plan_free(&plan, NULL);
    /* a file option cannot key the tuning, nor can an option of a workload with nothing to tune */
    climb_workload bad = *a;
    climb_option opts[16];
    memcpy(opts, a->options, sizeof(climb_option) * (size_t)a->n_options);
    opts[climb_opt_find(a->options, a->n_options, "input")].keys_tuning = 1;
    bad.options = opts;
    char msg[4000];
    climb_workload_validate(&bad, msg, sizeof msg);
    EXPECT_MSG(strstr(msg, "option input keys the tuning but is a file") != NULL, "%s", msg);
    opts[climb_opt_find(a->options, a->n_options, "input")].keys_tuning = 0;
    bad.tuning = NULL;
    climb_workload_validate(&bad, msg, sizeof msg);
    EXPECT_MSG(strstr(msg, "option op keys the tuning but the workload has nothing to tune") != NULL, "%s", msg);
    /* the shapes climb tune runs: the bench list unless the table names its own, which need a tunable and the
     * workload's dimensions */
    int n = 0;
    EXPECT(climb_tune_shapes(a, &n) == a->bench_shapes && n == a->n_bench_shapes);
    const climb_shape two[] = {CLIMB_SHAPE2(64, 64), CLIMB_SHAPE2(128, 128)};
    climb_workload tuned = *a;
    tuned.tune_shapes = two;
    tuned.n_tune_shapes = 2;
    EXPECT(climb_tune_shapes(&tuned, &n) == two && n == 2);
    EXPECT_MSG(climb_workload_validate(&tuned, msg, sizeof msg) == 0, "%s", msg);
    tuned.tuning = NULL;
    tuned.options = NULL;
    tuned.n_options = 0;
    climb_workload_validate(&tuned, msg, sizeof msg);
    EXPECT_MSG(strstr(msg, "tune_shapes without tunable parameters") != NULL, "%s", msg);
}

/* A class from the shape (contract: climb_tuning.shape_class), as a copy of affine's tuning with one would have:
 * "big" from a million elements on a GPU of 100 SMs, "small" below; nothing on other GPUs. */
static void big_or_small(const climb_device_info *dev, const climb_tuning_key *k, char *buf, size_t len)
{
    if (dev->sms == 100)
        snprintf(buf, len, "%s", k->shape.d[0] * k->shape.d[1] >= 1000000 ? "big" : "small");
}

static void test_shape_classes(void)
{
    const climb_workload *a = &climb_affine_workload;
    climb_tuning tn = *a->tuning;
    tn.shape_class = big_or_small;
    climb_workload s = *a;
    s.tuning = &tn;
    char msg[4000];
    climb_workload_validate(&s, msg, sizeof msg); /* a hook without its meaning for `climb list` */
    EXPECT_MSG(strstr(msg, "shape_class and shape_class_meaning go together") != NULL, "%s", msg);
    tn.shape_class_meaning = "big from a million elements on a GPU of 100 SMs, else small";
    climb_workload plain = s; /* no options: a class from the shape alone */
    plain.options = NULL;
    plain.n_options = 0;
    EXPECT(climb_tuning_has_classes(&s) && climb_tuning_has_classes(&plain));
    EXPECT_MSG(climb_workload_validate(&s, msg, sizeof msg) == 0, "%s", msg);
    climb_device_info dev, other;
    memset(&dev, 0, sizeof dev);
    dev.sms = 100;
    other = dev;
    other.sms = 80;
    char cls[128];
    climb_tuning_key big = {CLIMB_SHAPE2(1000, 1000), CLIMB_F32, NULL}, small = {CLIMB_SHAPE2(999, 1000), CLIMB_F32, NULL};
    climb_tuning_class(&s, &big, &dev, cls, sizeof cls); /* the options' part first */
    EXPECT_MSG(strcmp(cls, "op=axpb,big") == 0, "%s", cls);
    climb_tuning_class(&s, &small, &dev, cls, sizeof cls);
    EXPECT_MSG(strcmp(cls, "op=axpb,small") == 0, "%s", cls);
    climb_tuning_class(&plain, &small, &dev, cls, sizeof cls);
    EXPECT_MSG(strcmp(cls, "small") == 0, "%s", cls);
    climb_tuning_class(&s, &big, &other, cls, sizeof cls); /* the hook says nothing on this GPU */
    EXPECT_MSG(strcmp(cls, "op=axpb") == 0, "%s", cls);
    climb_tuning_class(&s, &big, NULL, cls, sizeof cls); /* no device: the options' part alone */
    EXPECT_MSG(strcmp(cls, "op=axpb") == 0, "%s", cls);
    climb_tuning_class(&plain, NULL, &dev, cls, sizeof cls); /* no case: nothing from a shape */
    EXPECT(cls[0] == '\0');
    char tiny[8]; /* a class longer than its buffer is cut, never overrun */
    climb_tuning_class(&s, &small, &dev, tiny, sizeof tiny);
    EXPECT_MSG(strcmp(tiny, "op=axpb") == 0, "%s", tiny);

    /* climb tune's one class at a time: the cases of the run that are in it, by shape (and option) */
    climb_opt_plan plan;
    char err[200];
    EXPECT(climb_opt_plan_init(&plan, s.options, s.n_options, err, sizeof err) == 0);
    climb_shape shapes[4] = {CLIMB_SHAPE2(1000, 1000), CLIMB_SHAPE2(10, 10), CLIMB_SHAPE2(2000, 1000),
                             CLIMB_SHAPE2(999, 1000)};
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.types = CLIMB_TYPE_BIT(CLIMB_F32);
    o.shapes = shapes;
    o.n_shapes = 4;
    o.only_class = "op=axpb,big";
    o.class_dev = &dev;
    climb_case_key *keys;
    const long combos = climb_opt_plan_combos(&plan);
    int n = climb_cases(&s, &o, &plan, NULL, 0, &keys);
    EXPECT_MSG(n == 2 * (int)combos && keys[0].shape.d[0] == 1000 && keys[1].shape.d[0] == 2000 &&
                   keys[n - 1].shape.d[0] == 2000,
               "%d cases of %ld combinations", n, combos);
    free(keys);
    o.only_class = "op=axpb,small";
    n = climb_cases(&s, &o, &plan, NULL, 0, &keys);
    EXPECT(n == 2 * (int)combos && keys[0].shape.d[0] == 10 && keys[n - 1].shape.d[0] == 999);
    free(keys);
    o.class_dev = &other; /* no class from the shape there: every case is "op=axpb" */
    o.only_class = "op=axpb";
    n = climb_cases(&s, &o, &plan, NULL, 0, &keys);
    EXPECT(n == 4 * (int)combos);
    free(keys);
    climb_opt_plan_free(&plan, NULL);
}

/* The registry is CMake's one list, in its order (the built-in workloads, before any registered at run time). */
static void test_one_list(void)
{
    int n;
    const climb_workload *const *all = climb_workloads(&n);
    char names[2000] = "";
    size_t used = 0;
    for (int i = 0; i < n && used < sizeof names; i++)
        if (all[i] != &climb_affine_workload)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? "," : "", all[i]->name);
    EXPECT_MSG(strcmp(names, CLIMB_ALL_WORKLOADS_LIST) == 0, "registry %s, CMake's list %s", names,
               CLIMB_ALL_WORKLOADS_LIST);
}

/* Every rung's kernel list at its workload's own values (climb_rung_kernels), on an H100's description: each
 * kernel a function and a block of 1 to 1024 threads. (A rung that lists another workload's kernels used to pass its
 * own zeros on as that workload's tuning: blocks of no threads, which climb occupancy refused.) */
static void test_kernel_lists(void)
{
    const climb_device_info dev = described_device(9, 0, 132, 2048); /* an H100 */
    int n_w, listed = 0;
    const climb_workload *const *all = climb_workloads(&n_w);
    for (int i = 0; i < n_w; i++)
        for (int r = 0; r < all[i]->n_rungs; r++)
            for (int t = 0; t < CLIMB_NTYPES; t++) {
                if (!(all[i]->types & CLIMB_TYPE_BIT(t)))
                    continue;
                const int n = climb_rung_kernels(all[i], r, (climb_dtype)t, &dev, NULL, 0);
                climb_kernel_desc ks[64];
                EXPECT_MSG(n >= 0 && n <= 64, "%s %s: %d kernels", all[i]->name, all[i]->rung(r)->name, n);
                if (n < 0 || n > 64)
                    continue;
                EXPECT(climb_rung_kernels(all[i], r, (climb_dtype)t, &dev, ks, n) == n);
                for (int k = 0; k < n; k++, listed++)
                    EXPECT_MSG(ks[k].func && ks[k].block_threads >= 1 && ks[k].block_threads <= 1024,
                               "%s %s %s: %s has a block of %d threads", all[i]->name, all[i]->rung(r)->name,
                               climb_dtype_name((climb_dtype)t), ks[k].name, ks[k].block_threads);
            }
    EXPECT(listed > 100);
    cudaGetLastError(); /* listing may set attributes, which fails without a GPU */
}

int main(void)
{
    test_one_list();
    test_kernel_lists();
    EXPECT(climb_register_workload(&climb_affine_workload) == 0);
    test_every_workload();
    test_broken();
    test_tuning();
    test_shape_classes();
    return test_finish("test_cpu_registry");
}
