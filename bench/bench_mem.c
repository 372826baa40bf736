/*
 * bench_mem.c - speed of the detailed memory hierarchy on its own: line
 * accesses per second of host time, driven by the synthetic SM side of the
 * memory tests (tests/sampler/mem/memdrv.c), for a streaming and a random
 * pattern.  Time is the process CPU time (single thread), so the figure
 * does not depend on other load on the host.  Also prints what was simulated (achieved DRAM bandwidth, mean
 * load latency, hit rates) so a speed figure is never quoted for a
 * degenerate run.
 *
 *   bench_mem [--config NAME] [--pattern stream|random|both] [--sms N]
 *             [--warps W] [--depth D] [--lines L] [--active A]
 *
 * stream: warps sweep one array grid-stride, one full line (all sectors) per
 *         access, D loads in flight per warp.
 * random: one random 32-byte sector of a random line in 4 GiB per access.
 * --active A: sampled mode, A simulated SMs with background traffic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_help.h"
#include "config_registry.h"
#include "memdrv.h"

typedef struct pat {
    int random;
    uint32_t nsm, warps;
    uint64_t lines; /* per warp */
    uint32_t full;  /* all-sector mask in l1d units */
    uint32_t nsect;
} pat;

static int gen(void *ctx, uint32_t sm, uint32_t warp, uint64_t i, drv_op *op)
{
    const pat *p = ctx;
    if (i >= p->lines)
        return 0;
    memset(op, 0, sizeof *op);
    op->kind = SIM_MEM_LOAD;
    if (p->random) {
        uint64_t h = (sm * 0x9E3779B97F4A7C15ull) ^ (warp * 0xC2B2AE3D27D4EB4Full) ^ (i * 0x165667B19E3779F9ull);
        h ^= h >> 31;
        h *= 0xD6E8FEB86659FD93ull;
        h ^= h >> 32;
        op->line = h % (1ull << 25); /* 4 GiB of 128-byte lines */
        op->sectors = 1u << ((h >> 40) % p->nsect);
    } else {
        op->line = i * p->nsm * p->warps + (uint64_t)sm * p->warps + warp;
        op->sectors = p->full;
    }
    return 1;
}

/* Process CPU time: the figure does not depend on other load on the host. */
static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static int run(const gpu_config *cfg, int random, uint32_t sms, uint32_t active, uint32_t warps, uint32_t depth,
               uint64_t lines)
{
    ge_err e;
    sim_mem_options o = {.active_sms = active, .background = active ? 1 : 0};
    sim_mem *m = sim_mem_create("detailed", cfg, &o, &e);
    if (!m) {
        fprintf(stderr, "bench_mem: %s\n", e.msg);
        return 1;
    }
    uint32_t nsect = cfg->l1d.size_bytes ? cfg->l1d.line_bytes / cfg->l1d.sector_bytes : 4;
    pat p = {random, active ? active : sms, warps, lines, nsect >= 32 ? UINT32_MAX : (1u << nsect) - 1, nsect};
    drv_cfg c = {p.nsm, warps, depth, 1, gen, &p, 0, 0, 0};
    drv_result r;
    double t0 = cpu_s();
    int rc = drv_run(m, &c, &r, &e);
    double dt = cpu_s() - t0;
    if (rc) {
        fprintf(stderr, "bench_mem: %s\n", e.msg);
        m->ops->destroy(m);
        return 1;
    }
    act_counters a;
    sim_mem_stats s;
    act_clear(&a);
    memset(&s, 0, sizeof s);
    m->ops->collect(m, &a, &s);
    double sect_bytes = cfg->l2.cache.sector_bytes;
    double bytes = (a.c[ACT_DRAM_READS] + a.c[ACT_DRAM_WRITES]) * cfg->dram.bus_bits / 8 * cfg->dram.burst_length;
    double secs = r.cycles / (cfg->gpu.core_clock_mhz * 1e6);
    printf("%-8s %-6s sms %3u%s warps %2u depth %u: %9.0f line accesses in %7.3f s CPU = %6.3f M/s | %8llu cycles, "
           "DRAM %7.1f GB/s (%4.1f%% of peak %.0f), L1 hit %4.1f%%, L2 hit %4.1f%%, row hit %4.1f%%, "
           "load latency %6.1f cycles\n",
           cfg->name[0] ? "" : "", random ? "random" : "stream", p.nsm, active ? " (sampled)" : "", warps, depth,
           r.loads, dt, r.loads / dt / 1e6, (unsigned long long)r.cycles, bytes / secs / 1e9,
           100 * bytes / secs / 1e9 / gcfg_dram_bandwidth_gbs(cfg), gcfg_dram_bandwidth_gbs(cfg),
           100 * s.l1_load_hits / (s.l1_load_sectors ? s.l1_load_sectors : 1),
           100 * s.l2_load_hits / (s.l2_load_sectors ? s.l2_load_sectors : 1),
           100 * s.dram_row_hits / (s.dram_row_accesses ? s.dram_row_accesses : 1), r.lat_sum / r.loads);
    (void)sect_bytes;
    m->ops->destroy(m);
    return 0;
}

static const char HELP[] =
    "usage: bench_mem [options]\n"
    "\n"
    "Speed of the detailed memory hierarchy alone, in line accesses per CPU second, driven by a synthetic SM\n"
    "side; also prints the achieved DRAM bandwidth, mean load latency and hit rates of each run.\n"
    "\n"
    "  --config NAME                    shipped config (default v100)\n"
    "  --pattern stream|random|both     stream: warps sweep one array grid-stride, a whole line per access;\n"
    "                                   random: one random sector in 4 GiB per access (default both)\n"
    "  --sms N                          SMs driving traffic (default: the config's)\n"
    "  --warps W                        warps per SM (default 32)\n"
    "  --depth D                        loads in flight per warp (default 4)\n"
    "  --lines L                        accesses per warp (default 200 stream, 100 random)\n"
    "  --active A                       sampled mode: A simulated SMs with background traffic (default 0: all)\n"
    "  -h, --help                       this text\n";

int main(int argc, char **argv)
{
    const char *cfgname = "v100", *pattern = "both";
    long long sms = 0, warps = 32, depth = 4, active = 0, lines = 0;
    for (int i = 1; i < argc; i++) {
        if (bench_help_arg(argv[i]))
            return bench_usage(HELP, NULL);
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--config") && v)
            cfgname = v, i++;
        else if (!strcmp(argv[i], "--pattern") && v)
            pattern = v, i++;
        else if (!strcmp(argv[i], "--sms") && v && bench_num(v, 0, 65535, &sms))
            i++;
        else if (!strcmp(argv[i], "--warps") && v && bench_num(v, 1, 65535, &warps))
            i++;
        else if (!strcmp(argv[i], "--depth") && v && bench_num(v, 1, 65535, &depth))
            i++;
        else if (!strcmp(argv[i], "--lines") && v && bench_num(v, 0, 1000000000, &lines))
            i++;
        else if (!strcmp(argv[i], "--active") && v && bench_num(v, 0, 65535, &active))
            i++;
        else {
            return bench_usage(HELP, argv[i]);
        }
    }
    if (strcmp(pattern, "stream") && strcmp(pattern, "random") && strcmp(pattern, "both")) {
        fprintf(stderr, "bench_mem: --pattern: '%s' is not stream, random or both\n", pattern);
        return 2;
    }
    gpu_config cfg;
    ge_err e;
    if (gcfg_load_named(cfgname, &cfg, &e)) {
        fprintf(stderr, "bench_mem: %s\n", e.msg);
        return 1;
    }
    if (!sms)
        sms = cfg.gpu.sm_count;
    printf("bench_mem: config %s (%s), %lld SMs\n", cfgname, cfg.name, sms);
    int rc = 0;
    if (!strcmp(pattern, "stream") || !strcmp(pattern, "both"))
        rc |= run(&cfg, 0, sms, active, warps, depth, lines ? lines : 200);
    if (!strcmp(pattern, "random") || !strcmp(pattern, "both"))
        rc |= run(&cfg, 1, sms, active, warps, depth, lines ? lines : 100);
    return rc;
}
