/* climb bench's cases that need an environment variable at another value from the process's start (env_child.h).
 * The child is this program again (/proc/self/exe), so it has the same workloads, wisdom and defaults. */
#include "env_child.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report_read.h"
#include "../base/host.h"

extern char **environ;

int env_children_split(run_args *a, env_child **out, int *n)
{
    *out = NULL;
    *n = 0;
    int cap = 0;
    for (int t = 0; t < a->n_targets; t++) {
        const climb_workload *w = a->targets[t];
        int k = -1;
        for (int j = 0; j < w->n_options; j++)
            if (w->options[j].env) {
                if (k >= 0) {
                    fprintf(stderr, "climb: %s: two options stand for environment variables (%s, %s): climb runs "
                                    "one a workload in processes of their own\n",
                            w->name, w->options[k].name, w->options[j].name);
                    return 2;
                }
                k = j;
            }
        if (k < 0)
            continue;
        climb_opt_plan *p = &a->plans[t];
        const climb_option *o = &w->options[k];
        char *keep = calloc((size_t)p->count[k] * 24 + 1, 1);
        if (!keep)
            return climb_host_oom("the values of %s", o->name), 2;
        int kept = 0;
        for (int i = 0; i < p->count[k]; i++) {
            const long long v = p->values[k][i].i;
            if (climb_env_value_here(o, v)) {
                sprintf(keep + strlen(keep), "%s%lld", kept++ ? "," : "", v);
                continue;
            }
            if (*n == cap) {
                cap = cap ? 2 * cap : 8;
                env_child *more = realloc(*out, sizeof *more * (size_t)cap);
                if (!more) {
                    free(keep);
                    return climb_host_oom("the run's child processes"), 2;
                }
                *out = more;
            }
            (*out)[(*n)++] = (env_child){w, o, v};
        }
        char err[300];
        if (kept && kept < p->count[k] && climb_opt_plan_set(p, k, keep, 0, err, sizeof err) != 0) {
            fprintf(stderr, "climb: %s: %s\n", w->name, err);
            free(keep);
            return 2;
        }
        free(keep);
        if (!kept) { /* every value elsewhere: this target moves past the ones this process runs */
            const climb_workload *tw = a->targets[t];
            climb_opt_plan tp = a->plans[t];
            const unsigned ts = a->set_opts ? a->set_opts[t] : 0;
            for (int j = t; j + 1 < a->n_targets + a->n_hidden; j++) {
                a->targets[j] = a->targets[j + 1];
                a->plans[j] = a->plans[j + 1];
                if (a->set_opts)
                    a->set_opts[j] = a->set_opts[j + 1];
            }
            const int last = a->n_targets + a->n_hidden - 1;
            a->targets[last] = tw;
            a->plans[last] = tp;
            if (a->set_opts)
                a->set_opts[last] = ts;
            a->n_targets--;
            a->n_hidden++;
            t--;
        }
    }
    return 0;
}

/* The environment with name=value in place of any name=...; free with free_env (the last entry is its own). */
static char **child_env(const char *name, long long value)
{
    int n = 0;
    while (environ && environ[n])
        n++;
    char **e = calloc((size_t)n + 2, sizeof *e);
    char *set = malloc(strlen(name) + 32);
    if (!e || !set) {
        free(e);
        free(set);
        return NULL;
    }
    sprintf(set, "%s=%lld", name, value);
    const size_t len = strlen(name);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!(strncmp(environ[i], name, len) == 0 && environ[i][len] == '='))
            e[m++] = environ[i];
    e[m++] = set;
    e[m] = NULL;
    return e;
}

static void free_env(char **e)
{
    if (!e)
        return;
    int m = 0;
    while (e[m])
        m++;
    if (m)
        free(e[m - 1]);
    free(e);
}

int env_child_run(const run_args *a, const env_child *c, climb_report *rep, int *failures)
{
    char setv[160], seed[32], json[4096] = "";
    snprintf(setv, sizeof setv, "%s=%lld", c->o->name, c->value);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)a->run.seed);
    if (!a->dry_run) {
        const char *tmp = getenv("TMPDIR");
        snprintf(json, sizeof json, "%s/climb-child-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        const int fd = mkstemp(json);
        if (fd < 0) {
            fprintf(stderr, "climb: %s: cannot make a temporary file for a child's report in %s\n", c->w->name,
                    tmp && *tmp ? tmp : "/tmp");
            return -1;
        }
        close(fd);
    }
    const char *extra[] = {"--set", setv, "--seed", seed, "--no-ceilings", "--json", json};
    char **argv = NULL, **envp = child_env(c->o->env, c->value);
    if (!envp || run_args_child_argv(a, "climb", c->w, c->o->name, extra, a->dry_run ? 5 : 7, &argv) != 0) {
        climb_host_oom("a child process's arguments");
        free_env(envp);
        if (json[0])
            unlink(json);
        return -1;
    }
    if (a->dry_run)
        printf("%s %s%s%s: in a process of its own, %s=%lld from its start:\n", c->w->name, setv,
               a->sweep ? ", sweep " : "", a->sweep ? a->sweep : "", c->o->env, c->value);
    else
        fprintf(stderr, "[%s %s] in a process of its own (%s=%lld from its start)\n", c->w->name, setv, c->o->env,
                c->value);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (!a->dry_run) /* its table is this process's to print, with every row */
        posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid;
    int status = 0, rc = 0;
    const int spawned = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    free_env(envp);
    free(argv);
    if (spawned != 0) {
        fprintf(stderr, "climb: %s %s: cannot start a process for it: %s\n", c->w->name, setv, strerror(spawned));
        if (json[0])
            unlink(json);
        return -1;
    }
    while (waitpid(pid, &status, 0) < 0)
        ;
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    if (a->dry_run)
        return code == 0 ? 0 : -1;
    climb_report_file f;
    char err[600];
    if (climb_report_file_read(json, &f, err, sizeof err) != CLIMB_REPORT_OK) {
        fprintf(stderr, "climb: %s %s: its process (%s=%lld) ended with status %d and left no report: %s\n",
                c->w->name, setv, c->o->env, c->value, code, err);
        rc = -1;
    } else {
        int wrong = 0;
        if (climb_report_add_json_rows(rep, c->w, f.results, &wrong, err, sizeof err) < 0) {
            fprintf(stderr, "climb: %s %s: its process's report: %s\n", c->w->name, setv, err);
            rc = -1;
        }
        const climb_json *notes = climb_json_get(f.root, "notes");
        for (int i = 0; notes && notes->type == CLIMB_JSON_ARRAY && i < notes->n; i++)
            if (notes->items[i].type == CLIMB_JSON_STRING)
                climb_report_note(rep, "%s %s (a process of its own): %s", c->w->name, setv, notes->items[i].string);
        climb_report_file_free(&f);
        if (failures)
            *failures += wrong;
        if (code != 0 && rc == 0 && wrong == 0) { /* a failure its rows do not show */
            fprintf(stderr, "climb: %s %s: its process ended with status %d\n", c->w->name, setv, code);
            rc = -1;
        }
    }
    unlink(json);
    return rc;
}
