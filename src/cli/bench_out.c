/* climb bench --out DIR (and the main command's own folder): the run's reports, its page beside the committed
 * results of the nearest GPU, and a line a workload at the end. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "../core/report.h"

/* mkdir -p: 0, or -1 with errno set. */
static int make_dirs(const char *dir)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return -1;
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return access(path, W_OK) == 0 ? 0 : -1;
}

int bench_out_check(const char *dir, int create, char *err, size_t errlen)
{
    if (create) {
        if (make_dirs(dir) != 0) {
            snprintf(err, errlen, "%s", strerror(errno));
            return -1;
        }
        return 0;
    }
    /* a dry run creates nothing: the folder, or the nearest folder above it that exists, must be writable */
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (;;) {
        struct stat st;
        if (stat(path, &st) == 0) {
            if (!S_ISDIR(st.st_mode)) {
                snprintf(err, errlen, "%s is not a folder", path);
                return -1;
            }
            if (access(path, W_OK) != 0) {
                snprintf(err, errlen, "%s: %s", path, strerror(errno));
                return -1;
            }
            return 0;
        }
        char *slash = strrchr(path, '/');
        if (!slash)
            return access(".", W_OK) == 0 ? 0 : (snprintf(err, errlen, ".: %s", strerror(errno)), -1);
        if (slash == path) {
            path[1] = '\0';
        } else {
            *slash = '\0';
        }
    }
}

void bench_out_auto_dir(const char *gpu, char *buf, size_t len)
{
    char slug[128], stamp[32];
    climb_gpu_slug(gpu, slug, sizeof slug);
    const time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(buf, len, "climb-bench/%s-%s", slug, stamp);
}

/* Where the committed results are: $CLIMB_RESULTS, else the source tree's results/. */
static const char *results_dir(void)
{
    const char *r = getenv("CLIMB_RESULTS");
    return r && r[0] ? r : CLIMB_RESULTS_DIR;
}

int bench_out_finish(const climb_report *rep, const char *dir, FILE *out)
{
    char json[4200], md[4200], html[4200], near[4200], why[600], title[400];
    snprintf(json, sizeof json, "%s/bench.json", dir);
    snprintf(md, sizeof md, "%s/bench.md", dir);
    snprintf(html, sizeof html, "%s/index.html", dir);
    int rc = 0;
    if (climb_report_write(rep, climb_report_json, json) != 0)
        rc = -1;
    if (climb_report_write(rep, climb_report_md, md) != 0)
        rc = -1;
    int page = 0;
    if (rc == 0) {
        const int have = climb_results_nearest(&rep->dev, results_dir(), near, sizeof near, why, sizeof why) == 0;
        snprintf(title, sizeof title, "climb bench on %s", rep->dev.name);
        const char *args[10];
        int n = 0;
        args[n++] = "report";
        if (have) /* without committed results the page holds this run alone */
            args[n++] = near;
        args[n++] = "--this-run";
        args[n++] = json;
        args[n++] = "--html";
        args[n++] = html;
        args[n++] = "--title";
        args[n++] = title;
        args[n] = NULL;
        page = cmd_report(n, (char **)args) == 0;
        if (!page)
            rc = -1;
        fprintf(out, "\nclimb bench on %s: the best rung of each workload, against its vendor (or its bound)\n\n",
                rep->dev.name);
        climb_report_summary(rep, out);
        fprintf(out, "\nwritten: %s, %s%s%s\n", json, md, page ? " and " : "", page ? html : "");
        if (page)
            fprintf(out, "the page sets this run beside %s%s%s\n", have ? near : "nothing else", have ? ": " : "",
                    have ? why : " (no committed results found; set CLIMB_RESULTS to a results folder)");
    }
    return rc;
}
