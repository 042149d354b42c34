/* What NVML says about a GPU's clocks and power at one moment, for the reports: the clocks then and their maxima,
 * the application clocks against their defaults, the power limit against its default, the draw, the temperature, and
 * the reasons the clocks are held down. NVML is the driver's library (libnvidia-ml.so.1), opened at run time so that
 * climb builds, links and runs where it is absent (a machine without the driver): there d->nvml stays 0. Its
 * functions are declared here with the types of NVML's stable ABI (nvml.h is not part of the CUDA toolkit). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "device.h"

typedef struct nvml_device_st *nvml_device;
enum { NVML_OK = 0 };
enum { NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 };
enum { NVML_TEMPERATURE_GPU = 0 };

typedef struct nvml_api {
    void *lib;
    int (*init)(void);
    int (*shutdown)(void);
    int (*by_pci)(const char *, nvml_device *);
    int (*clock)(nvml_device, int, unsigned *);
    int (*max_clock)(nvml_device, int, unsigned *);
    int (*app_clock)(nvml_device, int, unsigned *);
    int (*app_default)(nvml_device, int, unsigned *);
    int (*reasons)(nvml_device, unsigned long long *);
    int (*power_limit)(nvml_device, unsigned *);
    int (*power_default)(nvml_device, unsigned *);
    int (*power)(nvml_device, unsigned *);
    int (*temperature)(nvml_device, int, unsigned *);
} nvml_api;

static void *sym(void *lib, const char *a, const char *b)
{
    void *f = dlsym(lib, a);
    return f || !b ? f : dlsym(lib, b);
}

/* Opens NVML: 0, or -1 (no library, or a symbol missing: an NVML older than any CUDA 13 driver). */
static int nvml_open(nvml_api *n)
{
    memset(n, 0, sizeof *n);
    n->lib = dlopen("libnvidia-ml.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!n->lib)
        return -1;
    *(void **)&n->init = sym(n->lib, "nvmlInit_v2", "nvmlInit");
    *(void **)&n->shutdown = sym(n->lib, "nvmlShutdown", NULL);
    *(void **)&n->by_pci = sym(n->lib, "nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId");
    *(void **)&n->clock = sym(n->lib, "nvmlDeviceGetClockInfo", NULL);
    *(void **)&n->max_clock = sym(n->lib, "nvmlDeviceGetMaxClockInfo", NULL);
    *(void **)&n->app_clock = sym(n->lib, "nvmlDeviceGetApplicationsClock", NULL);
    *(void **)&n->app_default = sym(n->lib, "nvmlDeviceGetDefaultApplicationsClock", NULL);
    *(void **)&n->reasons = sym(n->lib, "nvmlDeviceGetCurrentClocksEventReasons",
                                "nvmlDeviceGetCurrentClocksThrottleReasons");
    *(void **)&n->power_limit = sym(n->lib, "nvmlDeviceGetEnforcedPowerLimit", NULL);
    *(void **)&n->power_default = sym(n->lib, "nvmlDeviceGetPowerManagementDefaultLimit", NULL);
    *(void **)&n->power = sym(n->lib, "nvmlDeviceGetPowerUsage", NULL);
    *(void **)&n->temperature = sym(n->lib, "nvmlDeviceGetTemperature", NULL);
    if (!n->init || !n->shutdown || !n->by_pci || !n->clock || n->init() != NVML_OK) {
        dlclose(n->lib);
        n->lib = NULL;
        return -1;
    }
    return 0;
}

static int get(int (*f)(nvml_device, int, unsigned *), nvml_device h, int what, int *out)
{
    unsigned v;
    if (!f || f(h, what, &v) != NVML_OK)
        return 0;
    *out = (int)v;
    return 1;
}

static double watts(int (*f)(nvml_device, unsigned *), nvml_device h)
{
    unsigned mw;
    return f && f(h, &mw) == NVML_OK ? mw / 1000.0 : -1;
}

int climb_device_nvml(climb_device_info *d)
{
    climb_nvml *s = &d->nvml;
    memset(s, 0, sizeof *s);
    s->sm_max_mhz = s->mem_max_mhz = s->app_sm_mhz = s->app_sm_default_mhz = s->temp_c = -1;
    s->power_limit_w = s->power_default_w = s->power_w = -1;
    char bus[32];
    if (cudaDeviceGetPCIBusId(bus, (int)sizeof bus, d->ordinal) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    nvml_api n;
    if (nvml_open(&n) != 0)
        return -1;
    nvml_device h;
    int rc = -1;
    if (n.by_pci(bus, &h) == NVML_OK && get(n.clock, h, NVML_CLOCK_SM, &s->sm_mhz) &&
        get(n.clock, h, NVML_CLOCK_MEM, &s->mem_mhz)) {
        get(n.max_clock, h, NVML_CLOCK_SM, &s->sm_max_mhz);
        get(n.max_clock, h, NVML_CLOCK_MEM, &s->mem_max_mhz);
        get(n.app_clock, h, NVML_CLOCK_SM, &s->app_sm_mhz);
        get(n.app_default, h, NVML_CLOCK_SM, &s->app_sm_default_mhz);
        unsigned long long r;
        s->reasons_known = n.reasons && n.reasons(h, &r) == NVML_OK;
        s->reasons = s->reasons_known ? r : 0;
        s->power_limit_w = watts(n.power_limit, h);
        s->power_default_w = watts(n.power_default, h);
        s->power_w = watts(n.power, h);
        get(n.temperature, h, NVML_TEMPERATURE_GPU, &s->temp_c);
        s->read = 1;
        rc = 0;
    }
    n.shutdown();
    dlclose(n.lib);
    return rc;
}

/* NVML's clock event reasons (nvmlClocksEventReason*), bit by bit. */
static const struct { unsigned long long bit; const char *name; } REASONS[] = {
    {0x1ull, "idle"},
    {0x2ull, "applications clocks setting"},
    {0x4ull, "software power cap"},
    {0x8ull, "hardware slowdown"},
    {0x10ull, "sync boost"},
    {0x20ull, "software thermal slowdown"},
    {0x40ull, "hardware thermal slowdown"},
    {0x80ull, "hardware power brake"},
    {0x100ull, "display clock setting"},
};

void climb_nvml_reasons(unsigned long long bits, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    if (!bits) {
        snprintf(buf, len, "none");
        return;
    }
    for (size_t i = 0; i < sizeof REASONS / sizeof REASONS[0]; i++)
        if (bits & REASONS[i].bit) {
            used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", used ? ", " : "",
                                     REASONS[i].name);
            bits &= ~REASONS[i].bit;
        }
    if (bits)
        snprintf(buf + used, used < len ? len - used : 0, "%sother (0x%llx)", used ? ", " : "", bits);
}

void climb_nvml_line(const climb_nvml *s, char *buf, size_t len)
{
    if (!s->read) {
        snprintf(buf, len, "NVML not available (no clocks, power or throttle reasons recorded)");
        return;
    }
    char reasons[300], app[96] = "", limit[96] = "", extra[96] = "";
    climb_nvml_reasons(s->reasons, reasons, sizeof reasons);
    if (s->app_sm_mhz >= 0 && s->app_sm_default_mhz >= 0)
        snprintf(app, sizeof app, "; application SM clock %d MHz (%s)", s->app_sm_mhz,
                 s->app_sm_mhz == s->app_sm_default_mhz ? "the default" : "set: the default is other");
    if (s->power_limit_w >= 0)
        snprintf(limit, sizeof limit, "; power limit %.0f W%s", s->power_limit_w,
                 s->power_default_w < 0 ? "" : s->power_limit_w == s->power_default_w ? " (the default)"
                                                                                       : " (not the default)");
    if (s->power_w >= 0)
        snprintf(extra, sizeof extra, ", drawing %.0f W", s->power_w);
    if (s->temp_c >= 0)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), ", %d C", s->temp_c);
    snprintf(buf, len, "NVML: SM clock %d of %d MHz, memory clock %d of %d MHz%s%s%s; clocks held by: %s", s->sm_mhz,
             s->sm_max_mhz, s->mem_mhz, s->mem_max_mhz, app, limit, extra, s->reasons_known ? reasons : "unknown");
}

/* ---- NVLinks ---- */

/* nvmlPciInfo_t of NVML's stable ABI (the _v3 layout that nvmlDeviceGetPciInfo_v3 and
 * nvmlDeviceGetNvLinkRemotePciInfo_v2 fill). */
typedef struct nvml_pci {
    char bus_id_legacy[16];
    unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32];
} nvml_pci;

static unsigned long long pci_key(const nvml_pci *p)
{
    return (unsigned long long)p->domain << 32 | (unsigned long long)(p->bus & 0xFFu) << 8 | (p->device & 0xFFu);
}

int climb_device_nvlinks(int ordinal, climb_nvlinks *out)
{
    memset(out, 0, sizeof *out);
    char bus[32];
    if (cudaDeviceGetPCIBusId(bus, (int)sizeof bus, ordinal) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    nvml_api n;
    if (nvml_open(&n) != 0)
        return -1;
    int (*state)(nvml_device, unsigned, int *);
    int (*remote)(nvml_device, unsigned, nvml_pci *);
    int (*remote_type)(nvml_device, unsigned, int *);
    int (*pci)(nvml_device, nvml_pci *);
    *(void **)&state = sym(n.lib, "nvmlDeviceGetNvLinkState", NULL);
    *(void **)&remote = sym(n.lib, "nvmlDeviceGetNvLinkRemotePciInfo_v2", NULL);
    *(void **)&remote_type = sym(n.lib, "nvmlDeviceGetNvLinkRemoteDeviceType", NULL);
    *(void **)&pci = sym(n.lib, "nvmlDeviceGetPciInfo_v3", NULL);
    nvml_device h;
    nvml_pci self;
    int rc = -1;
    if (state && remote && pci && n.by_pci(bus, &h) == NVML_OK && pci(h, &self) == NVML_OK) {
        out->self = pci_key(&self);
        for (unsigned l = 0; l < CLIMB_MAX_NVLINKS; l++) {
            int active = 0, type = -1;
            nvml_pci p;
            if (state(h, l, &active) != NVML_OK || !active)
                continue; /* a link that does not exist answers with an error: none past the GPU's last */
            memset(&p, 0, sizeof p);
            if (remote(h, l, &p) != NVML_OK)
                continue;
            if (!remote_type || remote_type(h, l, &type) != NVML_OK || type > 2)
                type = -1;
            out->remote_type[out->n] = type;
            out->remote[out->n] = pci_key(&p);
            out->n++;
        }
        out->read = 1;
        rc = 0;
    }
    n.shutdown();
    dlclose(n.lib);
    return rc;
}

void climb_nvlink_pair(const climb_nvlinks *a, const climb_nvlinks *b, int *links, int *nvswitch)
{
    *links = *nvswitch = -1;
    if (!a->read || !b->read)
        return;
    int direct = 0, sw_a = 0, sw_b = 0;
    for (int l = 0; l < a->n; l++) {
        direct += a->remote_type[l] != 2 && a->remote[l] == b->self;
        sw_a += a->remote_type[l] == 2;
    }
    for (int l = 0; l < b->n; l++)
        sw_b += b->remote_type[l] == 2;
    if (direct > 0 || sw_a == 0 || sw_b == 0) {
        *links = direct;
        *nvswitch = 0;
    } else {
        *links = sw_a < sw_b ? sw_a : sw_b;
        *nvswitch = 1;
    }
}
