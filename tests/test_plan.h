/* The option plan a test runs a workload's cases with: every option at its default, then the listed ones set by
 * name. One helper for every workload's tests instead of a copy in each. */
#ifndef CLIMB_TESTS_TEST_PLAN_H
#define CLIMB_TESTS_TEST_PLAN_H

#include <stdarg.h>

#include "core/options.h"
#include "core/workload.h"
#include "testing.h"

/* NAME, VALUE pairs after w, then NULL: test_plan(&p, w, "bins", "256", "dist", "all", NULL). An unknown name
 * or a value the option refuses is a failed check, with why. Free with climb_opt_plan_free. */
static inline void test_plan(climb_opt_plan *p, const climb_workload *w, ...)
{
    char err[300] = "";
    EXPECT_MSG(climb_opt_plan_init(p, w->options, w->n_options, err, sizeof err) == 0, "%s", err);
    va_list ap;
    va_start(ap, w);
    for (const char *name; (name = va_arg(ap, const char *)) != NULL;) {
        const char *value = va_arg(ap, const char *);
        const int k = climb_opt_find(w->options, w->n_options, name);
        EXPECT_MSG(k >= 0 && climb_opt_plan_set(p, k, value, 0, err, sizeof err) == 0, "%s=%s: %s", name, value,
                   k >= 0 ? err : "no such option");
    }
    va_end(ap);
}

#endif
