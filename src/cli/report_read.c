#include "report_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/report.h"
#include "../core/workload.h"
#include "../io/text.h"

int climb_same_text(const char *a, const char *b) { return a && b ? strcmp(a, b) == 0 : a == b; }

const char *climb_jstr(const climb_json *o, const char *key)
{
    const climb_json *v = climb_json_get(o, key);
    return v && v->type == CLIMB_JSON_STRING ? v->string : NULL;
}

double climb_jnum(const climb_json *o, const char *key)
{
    const climb_json *v = climb_json_get(o, key);
    return v && v->type == CLIMB_JSON_NUMBER ? v->number : NAN;
}

void climb_row_options_text(const climb_json *opts, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    if (!opts || opts->type != CLIMB_JSON_OBJECT)
        return;
    for (int i = 0; i < opts->n && used < len; i++) {
        const climb_json *v = &opts->items[i];
        char val[200] = "";
        if (v->type == CLIMB_JSON_STRING)
            snprintf(val, sizeof val, "%s", climb_base_name(v->string)); /* a file by its name */
        else if (v->type == CLIMB_JSON_NUMBER)
            snprintf(val, sizeof val, "%.17g", v->number);
        else if (v->type == CLIMB_JSON_BOOL)
            snprintf(val, sizeof val, "%s", v->number != 0 ? "true" : "false");
        else
            continue; /* null: an option that does not apply (an unset file) */
        if (v->type == CLIMB_JSON_STRING && !val[0])
            continue; /* an unset file option */
        used += (size_t)snprintf(out + used, len - used, "%s%s=%s", used ? " " : "", opts->keys[i], val);
    }
}

void climb_row_key(const climb_json *row, int with_rung, char *out, size_t len)
{
    const char *w = climb_jstr(row, "workload"), *rung = climb_jstr(row, "rung"), *type = climb_jstr(row, "type"),
               *shape = climb_jstr(row, "shape_label");
    char opts[500];
    climb_row_options_text(climb_json_get(row, "options"), opts, sizeof opts);
    snprintf(out, len, "%s|%s%s%s|%s%s%s", w ? w : "", with_rung && rung ? rung : "", with_rung ? "|" : "",
             type ? type : "", shape ? shape : "", opts[0] ? "|" : "", opts);
}

const char *climb_report_sources(const climb_json *reg)
{
    const char *s = climb_jstr(reg, "sources");
    return s ? s : climb_jstr(reg, "seed_ref"); /* format 2's name */
}

/* A row of an older report whose rung has been renamed since gets today's name (the rung's `formerly`), so that
 * compare and report pair it with today's rows. 0, or -1 out of memory. */
static int rename_rung(const climb_json *row)
{
    const climb_workload *w = climb_find_workload(climb_jstr(row, "workload"));
    climb_json *v = (climb_json *)climb_json_get(row, "rung");
    for (int k = 0; w && k < w->n_rungs; k++) {
        const char *was = w->rung(k)->formerly;
        if (was && strcmp(was, v->string) == 0) {
            char *now = strdup(w->rung(k)->name);
            if (!now)
                return -1;
            free(v->string);
            v->string = now;
            return 0;
        }
    }
    return 0;
}

climb_report_read_status climb_report_file_read(const char *path, climb_report_file *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    char why[400];
    size_t len = 0;
    unsigned char *text = NULL;
    if (climb_read_file(path, (size_t)1 << 30, "report", &text, &len, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s", why);
        return CLIMB_REPORT_UNREADABLE;
    }
    r->root = climb_json_parse((const char *)text, len, why, sizeof why);
    free(text);
    if (!r->root) {
        snprintf(err, errlen, "%s:%s", path, why);
        return CLIMB_REPORT_UNREADABLE;
    }
    const char *tool = climb_jstr(r->root, "tool");
    r->results = climb_json_get(r->root, "results");
    r->command = climb_jstr(r->root, "command");
    long format = 0;
    if (!tool || strcmp(tool, "climb") != 0 || !r->results || r->results->type != CLIMB_JSON_ARRAY) {
        snprintf(err, errlen, "%s: not a climb report (no \"tool\": \"climb\" with \"results\"%s)", path,
                 r->command ? ": a report of climb tune" : "");
        climb_report_file_free(r);
        return CLIMB_REPORT_NOT_REPORT;
    }
    if (!climb_json_int(climb_json_get(r->root, "format"), 2, CLIMB_REPORT_FORMAT, &format)) {
        snprintf(err, errlen, "%s: a climb report of another format than 2 to %d (docs/report-format.md)", path,
                 CLIMB_REPORT_FORMAT);
        climb_report_file_free(r);
        return CLIMB_REPORT_NOT_REPORT;
    }
    r->device = climb_json_get(r->root, "device");
    if (r->device && r->device->type != CLIMB_JSON_OBJECT)
        r->device = NULL;
    r->workloads = climb_json_get(r->root, "workloads");
    if (r->workloads && r->workloads->type != CLIMB_JSON_ARRAY)
        r->workloads = NULL;
    r->gpu = r->device ? climb_jstr(r->device, "name") : NULL;
    r->timing = climb_jstr(r->root, "timing");
    r->sweep = climb_jstr(r->root, "sweep");
    r->commit = climb_jstr(r->root, "git_commit");
    r->date = climb_jstr(r->root, "date");
    for (int i = 0; i < r->results->n; i++) {
        const climb_json *row = &r->results->items[i];
        if (row->type != CLIMB_JSON_OBJECT || !climb_jstr(row, "workload") || !climb_jstr(row, "rung")) {
            snprintf(err, errlen, "%s:%d: a result without workload and rung", path, row->line);
            climb_report_file_free(r);
            return CLIMB_REPORT_UNREADABLE;
        }
        if (rename_rung(row) != 0) {
            snprintf(err, errlen, "%s: out of host memory", path);
            climb_report_file_free(r);
            return CLIMB_REPORT_UNREADABLE;
        }
    }
    return CLIMB_REPORT_OK;
}

void climb_report_file_free(climb_report_file *r)
{
    climb_json_free(r->root);
    memset(r, 0, sizeof *r);
}
