/* CPU tests of the report: derived figures (rates, % of ceiling and peak, step and cumulative speedups,
 * ratio to the vendor) and the four writers. Writes a sample JSON for check_report_json.py. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/report.h"
#include "workloads/reduce.h"
#include "testing.h"

static climb_row *add(climb_report *r, int ordinal, double median_us, climb_row_status st)
{
    climb_row *row = climb_report_add(r);
    row->w = &climb_reduce_workload;
    row->ordinal = ordinal;
    row->type = CLIMB_I32;
    row->size = (size_t)1 << 22;
    row->status = st;
    row->bytes = 4.0 * (1 << 22);
    row->flops = (1 << 22) - 1;
    row->t.median_us = median_us;
    row->t.min_us = median_us * 0.98;
    row->t.noise_pct = 1.5;
    row->t.samples = 100;
    row->t.batch = 1;
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
    dev.peak_bw_gbs = 3352;
    dev.ffma_gflops = 60000;
    dev.peak_ffma_gflops = 67000;

    climb_report r;
    climb_report_init(&r, "bench", 1234, 0, &dev);
    EXPECT(strlen(r.date) == 20 && r.date[19] == 'Z');
    EXPECT(r.git_commit[0] != '\0');
    climb_row *vendor = add(&r, 0, 10.0, CLIMB_ROW_OK);
    climb_row *r1 = add(&r, 1, 100.0, CLIMB_ROW_OK);
    climb_row *r2 = add(&r, 2, 50.0, CLIMB_ROW_OK);
    climb_row *r3 = add(&r, 3, 0, CLIMB_ROW_REFUSED);
    snprintf(r3->note, sizeof r3->note, "needs n a multiple of 512, \"really\"");
    climb_row *r4 = add(&r, 4, 0, CLIMB_ROW_WRONG);
    snprintf(r4->note, sizeof r4->note, "[0] = 5, expected 7");
    climb_row *best = add(&r, 9, 8.0, CLIMB_ROW_OK);
    /* Another size: its rows must not borrow this size's rung 1 or vendor. */
    climb_row *other = add(&r, 9, 4.0, CLIMB_ROW_OK);
    other->size = 1000;
    climb_report_derive(&r);

    EXPECT(isnan(vendor->step) && isnan(vendor->cumulative));
    EXPECT(fabs(vendor->vs_vendor - 1.0) < 1e-12);
    EXPECT(isnan(r1->step));
    EXPECT(fabs(r1->cumulative - 1.0) < 1e-12);
    EXPECT(fabs(r2->step - 2.0) < 1e-12);
    EXPECT(fabs(r2->cumulative - 2.0) < 1e-12);
    EXPECT(fabs(r2->vs_vendor - 0.2) < 1e-12);
    EXPECT(isnan(best->step)); /* rung 8 was not run */
    EXPECT(fabs(best->cumulative - 12.5) < 1e-12);
    EXPECT(fabs(best->vs_vendor - 1.25) < 1e-12);
    EXPECT(fabs(best->gbs - 16777216.0 / 8e-6 / 1e9) < 1e-9);
    EXPECT(fabs(best->pct_ceiling - 100.0 * best->gbs / 3000) < 1e-9);
    EXPECT(fabs(best->pct_peak - 100.0 * best->gbs / 3352) < 1e-9);
    EXPECT(isnan(r3->gbs) && isnan(r4->vs_vendor));
    EXPECT(isnan(other->cumulative) && isnan(other->vs_vendor));

    char *table = render(&r, climb_report_table);
    EXPECT(strstr(table, "reduce_vectorized_single_pass") != NULL);
    EXPECT(strstr(table, "2097.2") != NULL);  /* GB/s of the best rung */
    EXPECT(strstr(table, "12.50x") != NULL);  /* its cumulative speedup */
    EXPECT(strstr(table, "refused: needs n a multiple of 512") != NULL);
    EXPECT(strstr(table, "WRONG: [0] = 5, expected 7") != NULL);
    EXPECT(strstr(table, "seed 1234") != NULL);
    free(table);

    char *csv = render(&r, climb_report_csv);
    EXPECT(count_lines(csv) == 1 + r.n_rows);
    EXPECT(strncmp(csv, "workload,ordinal,rung,", 22) == 0);
    EXPECT(strstr(csv, "\"needs n a multiple of 512, \"\"really\"\"\"") != NULL); /* CSV quoting */
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
    EXPECT(fields_ok && header_fields == 29);
    free(csv);

    char *md = render(&r, climb_report_md);
    EXPECT(strstr(md, "| 9 | `reduce_vectorized_single_pass` | 8.00 |") != NULL);
    EXPECT(strstr(md, "× cub_device_reduce |") != NULL);
    EXPECT(strstr(md, "|--:|") != NULL);
    free(md);

    char *json = render(&r, climb_report_json);
    EXPECT(strstr(json, "\"name\": \"Test GPU \\\"quoted\\\"\"") != NULL);
    EXPECT(strstr(json, "\"step_speedup\": null") != NULL);
    free(json);
    const char *out = getenv("CLIMB_TEST_JSON_OUT");
    if (out)
        EXPECT(climb_report_write(&r, climb_report_json, out) == 0);
    EXPECT(climb_report_write(&r, climb_report_json, "/nonexistent-dir/x.json") == -1);

    climb_report_free(&r);
    return test_finish("test_cpu_report");
}
