/*
 * gpgpusim_import.c - a GPGPU-Sim / Accel-Sim config as a gpuest config.
 *
 * How a value gets into the result, in order:
 *   1. Base: the shipped config of the nearest architecture (base_for_arch),
 *      chosen from the compute capability in the file.  It supplies every
 *      key the GPGPU-Sim format has no option for (power, most latencies of
 *      the small caches, NoC latency, ...).  Each such key is reported as
 *      "defaulted: key = value (from configs/NAME.cfg)".
 *   2. Options: the rules below overwrite base values.  Each key written is
 *      reported as mapped (same meaning), derived (computed from several
 *      options) or approx (GPGPU-Sim means something slightly different;
 *      the line says what).
 *   3. Every option no rule consumed is reported "not mapped", with a reason
 *      where the importer knows the option (simulator-control options).
 * The result is validated with the normal loader rules and written and
 * re-read once (gcfg_write -> gcfg_load_string) before it is returned, so a
 * successful import always loads.
 *
 * Sources for the format: GPGPU-Sim's option parser and gpu-cache.h
 * (cache_config::init: "<N|S>:<sets>:<line>:<assoc>,<rep>:<wr>:<alloc>:
 * <wr_alloc>:<set_index>,<mshr>:<entries>:<merge>,<miss_queue>:<fifo>,
 * <port>") and the GPGPU-Sim 4 / Accel-Sim tested configs; GPGPU-Sim 3.x
 * strings without the sector flag and set-index field are accepted too.
 * Units: GPGPU-Sim's dram_latency and l2_rop_latency count core cycles; its
 * DRAM timing string counts DRAM command cycles (the 4th clock domain).
 */
#include "gpgpusim_import.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_registry.h"
#include "gpgpusim_internal.h"

const char *const ggs_kind_names[GGS_KIND_COUNT] = {"mapped", "derived", "approx", "defaulted", "not mapped",
                                                    "note"};


/* ---- report ---- */

void ggs_report_free(ggs_report *r)
{
    if (!r)
        return;
    free(r->v);
    memset(r, 0, sizeof *r);
}

size_t ggs_report_count(const ggs_report *r, ggs_kind kind)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++)
        n += r->v[i].kind == kind;
    return n;
}

int ggsi_say(imp *im, ggs_kind kind, const char *fmt, ...)
{
    if (!im->rep)
        return 0;
    if (ge_reserve((void **)&im->rep->v, &im->rep->cap, im->rep->n + 1, sizeof *im->rep->v, im->e))
        return -1;
    ggs_line *l = &im->rep->v[im->rep->n++];
    l->kind = kind;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->text, sizeof l->text, fmt, ap);
    va_end(ap);
    for (char *p = l->text; *p; p++) /* one line each: values may hold newlines */
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = ' ';
    return 0;
}

/* ---- option access ---- */

ggs_opt *ggsi_use(imp *im, const char *name)
{
    ggs_opt *o = ggs_opts_find(&im->opts, name);
    if (o)
        o->used = 1;
    return o;
}

/* 1 and *v if present, 0 if absent, -1 on a malformed value. */
int ggsi_get_u32(imp *im, const char *name, uint32_t *v, ggs_opt **out)
{
    ggs_opt *o = ggsi_use(im, name);
    if (out)
        *out = o;
    if (!o)
        return 0;
    return ggs_parse_u32(o, o->value, v, im->e) ? -1 : 1;
}

int ggsi_key_index(const gcfg_key *k)
{
    size_t n;
    return (int)(k - gcfg_keys(&n));
}

int ggsi_isset(const imp *im, const char *key)
{
    const gcfg_key *k = gcfg_find_key(key);
    return k && im->set[ggsi_key_index(k)];
}

/* Write key from option src (NULL: derived from several / none) and report it. */
int ggsi_putv(imp *im, const char *key, const char *val, const ggs_opt *src, ggs_kind kind, const char *why)
{
    const gcfg_key *k = gcfg_find_key(key);
    if (!k)
        return ge_errf(im->e, "internal: importer writes unknown key %s", key);
    ge_err sub;
    if (gcfg_set(im->cfg, key, val, &sub)) {
        /* gcfg_set says "config: key: msg"; the key is named below */
        char pre[96];
        snprintf(pre, sizeof pre, "config: %s: ", key);
        if (!strncmp(sub.msg, pre, strlen(pre)))
            memmove(sub.msg, sub.msg + strlen(pre), strlen(sub.msg + strlen(pre)) + 1);
        if (src)
            return ge_errf(im->e, "%s:%d: %s: cannot be used as %s: %s", src->file, src->vline, src->name, key,
                           sub.msg);
        return ge_errf(im->e, "%s: %s", im->mainfile, sub.msg);
    }
    int ki = ggsi_key_index(k);
    int overrides = src && im->loc[ki].opt && strcmp(im->loc[ki].opt, src->name) != 0;
    im->set[ki] = 1;
    if (overrides && ggsi_say(im, GGS_NOTE, "%s: %s (%s:%d) overrides %s (%s:%d)", key, src->name, src->file,
                              src->line, im->loc[ki].opt, im->loc[ki].file, im->loc[ki].line))
        return -1;
    if (src) {
        im->loc[ki].file = src->file;
        im->loc[ki].opt = src->name;
        im->loc[ki].line = src->vline;
    }
    if (!src && kind == GGS_DEFAULTED)
        return ggsi_say(im, kind, "%s = %s (%s)", key, val, why ? why : "default");
    if (src)
        return ggsi_say(im, kind, "%s = %s <- %s (%s:%d)%s%s", key, val, src->name, src->file, src->line, why ? "; " : "",
                   why ? why : "");
    return ggsi_say(im, kind, "%s = %s%s%s", key, val, why ? " <- " : "", why ? why : "");
}

int ggsi_putn(imp *im, const char *key, double v, const ggs_opt *src, ggs_kind kind, const char *why)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", v);
    return ggsi_putv(im, key, buf, src, kind, why);
}

/* Simple one-to-one numeric options. */
typedef struct direct_map {
    const char *opt;
    const char *key;
} direct_map;

static const direct_map direct[] = {
    {"-gpgpu_shader_registers", "sm.registers"},
    {"-gpgpu_shader_cta", "sm.max_ctas"},
    {"-gpgpu_num_reg_banks", "sm.rf_banks"},
    {"-gpgpu_num_sched_per_core", "sm.schedulers"},
    {"-gpgpu_max_insn_issue_per_warp", "sm.issue_width"},
    {"-gpgpu_inst_fetch_throughput", "sm.fetch_width"},
    {"-gpgpu_shmem_size", "sm.shared_bytes"},
    {"-gpgpu_shmem_num_banks", "sm.shared_banks"},
    {"-gpgpu_smem_latency", "sm.shared_latency_cycles"},
    {"-gpgpu_num_sp_units", "units.fp32"},
    {"-gpgpu_num_sfu_units", "units.sfu"},
    {"-gpgpu_l1_latency", "l1d.latency_cycles"},
    {"-gpgpu_l1_banks", "l1d.banks"},
    {"-gpgpu_l2_rop_latency", "l2.latency_cycles"},
    {"-icnt_flit_size", "noc.flit_bytes"},
    {"-icnt_in_buffer_limit", "noc.buffer_flits"},
    {"-gpgpu_n_mem", "dram.channels"},
    {"-gpgpu_dram_burst_length", "dram.burst_length"},
    {"-dram_data_command_freq_ratio", "dram.data_rate"},
};

/* Options the importer knows and deliberately does not map. */
typedef struct known_skip {
    const char *opt;
    const char *why;
} known_skip;

static const known_skip skipped[] = {
    {"-gpgpu_ptx_instruction_classification", "functional-simulator switch"},
    {"-gpgpu_ptx_sim_mode", "functional-simulator switch"},
    {"-gpgpu_ptx_force_max_capability", "PTX target of the functional simulator"},
    {"-gpgpu_ptx_convert_to_ptxplus", "functional-simulator switch"},
    {"-gpgpu_ptx_save_converted_ptxplus", "functional-simulator switch"},
    {"-gpgpu_stack_size_limit", "CUDA runtime limit, not hardware"},
    {"-gpgpu_heap_size_limit", "CUDA runtime limit, not hardware"},
    {"-gpgpu_runtime_sync_depth_limit", "CUDA runtime limit, not hardware"},
    {"-gpgpu_runtime_pending_launch_count_limit", "CUDA runtime limit, not hardware"},
    {"-gpgpu_kernel_launch_latency", "kernel launch overhead is not modelled"},
    {"-gpgpu_TB_launch_latency", "CTA launch overhead is not modelled"},
    {"-gpgpu_max_concurrent_kernel", "concurrent kernels are not modelled"},
    {"-gpgpu_occupancy_sm_number", "occupancy follows from sm.* limits"},
    {"-gpgpu_simd_model", "gpuest always models SIMT warps"},
    {"-gpgpu_pipeline_widths", "no pipeline-register widths in gpuest; throughput is units x ii"},
    {"-gpgpu_sub_core_model", "gpuest always divides units evenly among schedulers"},
    {"-gpgpu_enable_specialized_operand_collector", "only the total of operand collectors is kept"},
    {"-gpgpu_operand_collector_num_in_ports_sp", "collector ports are not modelled"},
    {"-gpgpu_operand_collector_num_out_ports_sp", "collector ports are not modelled"},
    {"-gpgpu_operand_collector_num_in_ports_gen", "collector ports are not modelled"},
    {"-gpgpu_operand_collector_num_out_ports_gen", "collector ports are not modelled"},
    {"-gpgpu_operand_collector_num_in_ports_dp", "collector ports are not modelled"},
    {"-gpgpu_operand_collector_num_out_ports_dp", "collector ports are not modelled"},
    {"-gpgpu_operand_collector_num_in_ports_sfu", "collector ports are not modelled"},
    {"-gpgpu_operand_collector_num_out_ports_sfu", "collector ports are not modelled"},
    {"-gpgpu_operand_collector_num_in_ports_int", "collector ports are not modelled"},
    {"-gpgpu_operand_collector_num_out_ports_int", "collector ports are not modelled"},
    {"-gpgpu_operand_collector_num_in_ports_mem", "collector ports are not modelled"},
    {"-gpgpu_operand_collector_num_out_ports_mem", "collector ports are not modelled"},
    {"-gpgpu_operand_collector_num_in_ports_tensor_core", "collector ports are not modelled"},
    {"-gpgpu_operand_collector_num_out_ports_tensor_core", "collector ports are not modelled"},
    {"-gpgpu_reg_file_port_throughput", "register-file ports are not modelled"},
    {"-gpgpu_dual_issue_diff_exec_units", "covered by sm.issue_width"},
    {"-gpgpu_registers_per_block", "no per-CTA register limit in gpuest"},
    {"-gpgpu_shmem_sizeDefault", "gpuest uses the maximum carve-out (-gpgpu_shmem_size)"},
    {"-gpgpu_shmem_limited_broadcast", "shared-memory broadcast is always modelled"},
    {"-gpgpu_shmem_warp_parts", "gpuest resolves bank conflicts per full warp"},
    {"-gpgpu_coalesce_arch", "coalescing follows the line/sector sizes"},
    {"-gpgpu_adaptive_cache_config", "gpuest has a fixed L1/shared carve-out"},
    {"-gpgpu_shmem_option", "gpuest has a fixed L1/shared carve-out"},
    {"-gpgpu_unified_l1d_size", "unified size = l1d.size_bytes + sm.shared_bytes"},
    {"-gpgpu_l1_cache_write_ratio", "L1 write-ratio limit is not modelled"},
    {"-gpgpu_gmem_skip_L1D", "no L1-bypass switch in gpuest"},
    {"-gpgpu_flush_l1_cache", "simulator flush control"},
    {"-gpgpu_n_cluster_ejection_buffer_size", "cluster ejection buffer is not modelled"},
    {"-gpgpu_cache:dl2_texture_only", "simulator switch"},
    {"-gpgpu_cache:dl1PrefL1", "alternative carve-out; gpuest keeps one"},
    {"-gpgpu_cache:dl1PrefShared", "alternative carve-out; gpuest keeps one"},
    {"-gpgpu_perfect_inst_const_cache", "idealisation switch"},
    {"-gpgpu_dram_partition_queues", "partition queues are not modelled"},
    {"-gpgpu_dram_return_queue_size", "DRAM return queue is not modelled"},
    {"-gpgpu_perf_sim_memcpy", "simulator switch"},
    {"-gpgpu_mem_address_mask", "address mask is not modelled"},
    {"-dram_dual_bus_interface", "HBM dual command bus is not modelled"},
    {"-dram_bnk_indexing_policy", "bank index hashing is not modelled"},
    {"-dram_bnkgrp_indexing_policy", "bank-group index hashing is not modelled"},
    {"-network_mode", "gpuest has one crossbar model"},
    {"-inter_config_file", "the Intersim file is not read"},
    {"-icnt_out_buffer_limit", "only the input buffer is kept"},
    {"-icnt_subnets", "gpuest has one request and one reply network"},
    {"-icnt_arbiter_algo", "crossbar arbitration is not configurable"},
    {"-gpgpu_clock_gated_lanes", "power-model switch (see power.lane_static)"},
    {"-gpgpu_memlatency_stat", "statistics switch"},
    {"-gpgpu_runtime_stat", "statistics switch"},
    {"-enable_ptx_file_line_stats", "statistics switch"},
    {"-visualizer_enabled", "statistics switch"},
    {"-power_simulation_enabled", "power-model switch"},
    {"-gpuwattch_xml_file", "GPUWattch/AccelWattch XML is not read"},
    {"-accelwattch_xml_file", "GPUWattch/AccelWattch XML is not read"},
    {"-trace_enabled", "tracing switch"},
    {"-trace_components", "tracing switch"},
    {"-trace_sampling_core", "tracing switch"},
};

/* ---- identity: compute capability, architecture, base config ---- */


/* Technology: Fermi 40 nm, Kepler/Maxwell 28 nm, Pascal 16 nm, Volta/Turing
 * 12 nm, Ampere 7 nm (GA100; GA10x is 8 nm), Ada/Hopper TSMC 4N (NVIDIA
 * whitepapers of each generation). */
static const arch_row arches[] = {
    {0, "custom", "v100", 12},   {20, "fermi", "gtx480", 40},  {30, "kepler", "gtx480", 28},
    {50, "maxwell", "v100", 28}, {60, "pascal", "v100", 16},   {70, "volta", "v100", 12},
    {73, "turing", "rtx2060", 12}, {80, "ampere", "a100", 7}, {89, "ada", "a100", 4},
    {90, "hopper", "h100", 4},   {100, "custom", "h100", 4},
};

static const arch_row *arch_for_cc(uint32_t cc)
{
    const arch_row *r = &arches[0];
    for (size_t i = 0; i < sizeof arches / sizeof *arches; i++)
        if (cc >= arches[i].cc_min)
            r = &arches[i];
    return r;
}

static int do_identity(imp *im, const arch_row **row)
{
    uint32_t maj = 0, min = 0, cc = 0;
    ggs_opt *omaj, *omin;
    int hm = ggsi_get_u32(im, "-gpgpu_compute_capability_major", &maj, &omaj);
    int hn = ggsi_get_u32(im, "-gpgpu_compute_capability_minor", &min, &omin);
    if (hm < 0 || hn < 0)
        return -1;
    const ggs_opt *src = NULL;
    const char *how = NULL;
    if (hm) {
        if (maj > 19 || min > 9)
            return ge_errf(im->e, "%s:%d: %s: compute capability %u.%u is not plausible", omaj->file, omaj->vline,
                           omaj->name, maj, min);
        cc = maj * 10 + min;
        src = omaj;
        how = hn ? "major x 10 + -gpgpu_compute_capability_minor" : "major x 10 (no minor given)";
    } else {
        static const char *const fallbacks[] = {"-gpgpu_ptx_force_max_capability", "-gpgpu_occupancy_sm_number"};
        for (size_t i = 0; i < 2 && !src; i++) {
            ggs_opt *o = ggs_opts_find(&im->opts, fallbacks[i]);
            if (o && ggs_parse_u32(o, o->value, &cc, im->e) == 0 && cc >= 10 && cc <= 200) {
                src = o;
                o->used = 1;
                how = "no -gpgpu_compute_capability_major; taken from this option";
            }
        }
    }
    if (!src) {
        cc = 70;
        if (ggsi_say(im, GGS_DEFAULTED, "gpu.compute_capability = 70 (the file gives no compute capability)"))
            return -1;
    }
    if (cc < 10 || cc > 200)
        return ge_errf(im->e, "%s:%d: %s: compute capability %u out of range", src->file, src->vline, src->name, cc);
    *row = arch_for_cc(cc);
    const gcfg_embedded *base = gcfg_find_embedded((*row)->base);
    if (!base)
        return ge_errf(im->e, "internal: shipped config '%s' is not compiled in", (*row)->base);
    ge_err sub;
    if (gcfg_load_string((const char *)base->text, base->path, im->cfg, &sub))
        return ge_errf(im->e, "internal: shipped %s does not load: %s", base->path, sub.msg);
    im->basepath = base->path;
    if (src && ggsi_putn(im, "gpu.compute_capability", cc, src, GGS_DERIVED, how))
        return -1;
    char why[128];
    snprintf(why, sizeof why, "from compute capability %u.%u", cc / 10, cc % 10);
    if (ggsi_putv(im, "gpu.arch", (*row)->arch, NULL, GGS_DERIVED, why))
        return -1;
    return ggsi_say(im, GGS_NOTE, "keys the file does not give are taken from %s (nearest shipped architecture)",
               base->path);
}

/* ---- gpu and sm ---- */

static int do_gpu(imp *im)
{
    uint32_t ncl = 0, cpc = 1;
    ggs_opt *ocl, *ocpc;
    int h1 = ggsi_get_u32(im, "-gpgpu_n_clusters", &ncl, &ocl);
    int h2 = ggsi_get_u32(im, "-gpgpu_n_cores_per_cluster", &cpc, &ocpc);
    if (h1 < 0 || h2 < 0)
        return -1;
    if (h1 && ggsi_putn(im, "gpu.sm_count", (double)ncl * cpc, ocl, GGS_DERIVED,
                   h2 ? "x -gpgpu_n_cores_per_cluster" : "x 1 core per cluster (no -gpgpu_n_cores_per_cluster)"))
        return -1;
    ggs_opt *oc = ggsi_use(im, "-gpgpu_clock_domains");
    if (oc) {
        double clk[4];
        int n = ggs_parse_f64_list(oc, oc->value, ':', clk, 4, im->e);
        if (n < 0)
            return -1;
        if (n != 4)
            return ge_errf(im->e, "%s:%d: %s: expected <core>:<interconnect>:<L2>:<DRAM> MHz, got %d values",
                           oc->file, oc->vline, oc->name, n);
        static const char *const keys[4] = {"gpu.core_clock_mhz", "gpu.icnt_clock_mhz", "gpu.l2_clock_mhz",
                                            "gpu.dram_clock_mhz"};
        for (int i = 0; i < 4; i++)
            if (ggsi_putn(im, keys[i], clk[i], oc, GGS_MAPPED, i == 3 ? "DRAM command clock" : NULL))
                return -1;
    }
    im->core_mhz = im->cfg->gpu.core_clock_mhz;
    im->dram_mhz = im->cfg->gpu.dram_clock_mhz;
    return 0;
}

static int do_direct(imp *im)
{
    for (size_t i = 0; i < sizeof direct / sizeof *direct; i++) {
        uint32_t v;
        ggs_opt *o;
        int h = ggsi_get_u32(im, direct[i].opt, &v, &o);
        if (h < 0)
            return -1;
        if (h && ggsi_putn(im, direct[i].key, v, o, GGS_MAPPED, NULL))
            return -1;
    }
    return 0;
}

static int do_sm(imp *im, const arch_row *row)
{
    gpu_config *c = im->cfg;
    ggs_opt *op = ggsi_use(im, "-gpgpu_shader_core_pipeline");
    if (op) {
        uint32_t v[2];
        int n = ggs_parse_u32_list(op, op->value, ':', v, 2, im->e);
        if (n < 0)
            return -1;
        if (n != 2)
            return ge_errf(im->e, "%s:%d: %s: expected <threads per SM>:<warp size>", op->file, op->vline, op->name);
        if (ggsi_putn(im, "sm.warp_size", v[1], op, GGS_MAPPED, "second field") ||
            ggsi_putn(im, "sm.max_threads", v[0], op, GGS_MAPPED, "first field") ||
            ggsi_putn(im, "sm.max_warps", v[0] / v[1], op, GGS_DERIVED, "threads / warp size"))
            return -1;
    }
    /* Limits GPGPU-Sim does not configure: CUDA C Programming Guide, table
     * "Technical Specifications per Compute Capability", and the CUDA
     * Occupancy Calculator's allocation granularities. */
    uint32_t cc = c->gpu.compute_capability;
    char why[160];
    snprintf(why, sizeof why, "CUDA limit for compute capability %u.%u (GPGPU-Sim has no option)", cc / 10, cc % 10);
    if (ggsi_putn(im, "sm.max_regs_per_thread", cc < 32 ? 63 : 255, NULL, GGS_DERIVED, why) ||
        ggsi_putn(im, "sm.reg_alloc_unit", cc < 30 ? 64 : 256, NULL, GGS_DERIVED, why) ||
        ggsi_putn(im, "sm.shared_alloc_unit", cc < 30 ? 128 : cc < 80 ? 256 : 128, NULL, GGS_DERIVED, why))
        return -1;
    (void)row;
    if (ggsi_putn(im, "sm.ibuffer_entries", 2, NULL, GGS_DERIVED, "GPGPU-Sim's fixed 2-entry instruction buffer per warp"))
        return -1;
    /* Shared memory per CTA: explicit limit, else the whole SM's. */
    uint32_t v;
    ggs_opt *o;
    int h = ggsi_get_u32(im, "-gpgpu_shmem_per_block", &v, &o);
    if (h < 0)
        return -1;
    if (h ? ggsi_putn(im, "sm.shared_per_cta_bytes", v, o, GGS_MAPPED, NULL)
          : (ggsi_isset(im, "sm.shared_bytes")
                 ? ggsi_putn(im, "sm.shared_per_cta_bytes", c->sm.shared_bytes, NULL, GGS_DERIVED,
                        "= sm.shared_bytes (no -gpgpu_shmem_per_block)")
                 : 0))
        return -1;
    /* Scheduler policy names of GPGPU-Sim's shader.cc. */
    ggs_opt *os = ggsi_use(im, "-gpgpu_scheduler");
    if (os) {
        static const struct {
            const char *prefix, *ours, *why;
        } pol[] = {
            {"lrr", "lrr", NULL},
            {"gto", "gto", NULL},
            {"two_level_active", "two_level", "active-pool size and options after ':' are not mapped"},
            {"rrr", "lrr", "approx: strict round robin modelled as loose round robin"},
            {"old", "gto", "approx: oldest-first modelled as greedy-then-oldest"},
            {"warp_limiting", "gto", "approx: warp-limiting GTO modelled as GTO without the limit"},
        };
        const char *val = os->value;
        size_t i;
        for (i = 0; i < sizeof pol / sizeof *pol; i++) {
            size_t n = strlen(pol[i].prefix);
            if (strncmp(val, pol[i].prefix, n) == 0 && (val[n] == 0 || val[n] == ':'))
                break;
        }
        if (i == sizeof pol / sizeof *pol) {
            if (ggsi_say(im, GGS_NOT_MAPPED, "%s '%s' (%s:%d): unknown policy; sm.scheduler stays '%s' from %s",
                    os->name, val, os->file, os->line, c->sm.scheduler, im->basepath))
                return -1;
        } else if (ggsi_putv(im, "sm.scheduler", pol[i].ours, os, pol[i].why && !strncmp(pol[i].why, "approx", 6)
                                                                 ? GGS_APPROX
                                                                 : GGS_MAPPED,
                        pol[i].why)) {
            return -1;
        }
    }
    /* Operand collectors: the sum of the collector units the file gives;
     * with specialized collectors disabled only the generic ones exist. */
    static const char *const ocu[] = {"-gpgpu_operand_collector_num_units_sp",  "-gpgpu_operand_collector_num_units_dp",
                                      "-gpgpu_operand_collector_num_units_sfu", "-gpgpu_operand_collector_num_units_int",
                                      "-gpgpu_operand_collector_num_units_tensor_core",
                                      "-gpgpu_operand_collector_num_units_mem", "-gpgpu_operand_collector_num_units_gen"};
    uint32_t spec = 1, total = 0, gen = 0;
    int any = 0;
    ggs_opt *first = NULL;
    if (ggsi_get_u32(im, "-gpgpu_enable_specialized_operand_collector", &spec, NULL) < 0)
        return -1;
    for (size_t i = 0; i < sizeof ocu / sizeof *ocu; i++) {
        uint32_t n;
        ggs_opt *oo;
        int hh = ggsi_get_u32(im, ocu[i], &n, &oo);
        if (hh < 0)
            return -1;
        if (hh) {
            any = 1;
            if (!first)
                first = oo;
            total += n;
            if (i == 6)
                gen = n;
        }
    }
    if (any) {
        uint32_t n = spec ? total : gen;
        if (n == 0)
            n = 1;
        if (ggsi_putn(im, "sm.operand_collectors", n, first, GGS_DERIVED,
                 spec ? "sum of all -gpgpu_operand_collector_num_units_*"
                      : "generic collectors only (-gpgpu_enable_specialized_operand_collector 0)"))
            return -1;
    }
    return 0;
}

/* ---- finishing ---- */

static int report_defaults(imp *im)
{
    size_t n;
    const gcfg_key *ks = gcfg_keys(&n);
    int ref_note = 0, scale_note = 0;
    for (size_t i = 0; i < n; i++) {
        if (im->set[i])
            continue;
        const gcfg_key *k = &ks[i];
        if (!strncmp(k->path, "reference.", 10)) {
            if (!ref_note++ && ggsi_say(im, GGS_DEFAULTED, "reference.* = 0 (no published hardware figures for an imported "
                                                      "config)"))
                return -1;
            continue;
        }
        if (!strncmp(k->path, "power.scale.", 12)) {
            if (!scale_note++ && ggsi_say(im, GGS_DEFAULTED, "power.scale.* = 1 (uncalibrated)"))
                return -1;
            continue;
        }
        char val[80];
        if (k->type == GCFG_STRING)
            snprintf(val, sizeof val, "\"%s\"", gcfg_get_str(im->cfg, k));
        else
            snprintf(val, sizeof val, "%.10g", gcfg_get_num(im->cfg, k));
        if (ggsi_say(im, GGS_DEFAULTED, "%s = %s (from %s)", k->path, val, im->basepath))
            return -1;
    }
    return 0;
}

static int report_unused(imp *im)
{
    for (size_t i = 0; i < im->opts.n; i++) {
        ggs_opt *o = &im->opts.v[i];
        if (o->count > 1 && ggsi_say(im, GGS_NOTE, "%s given %d times; the last (%s:%d) is used", o->name, o->count,
                                o->file, o->line))
            return -1;
        if (o->used)
            continue;
        const char *why = "not known to the importer";
        for (size_t k = 0; k < sizeof skipped / sizeof *skipped; k++)
            if (!strcmp(skipped[k].opt, o->name))
                why = skipped[k].why;
        if (ggsi_say(im, GGS_NOT_MAPPED, "%s (%s:%d): %s", o->name, o->file, o->line, why))
            return -1;
    }
    return 0;
}

/* A validation message "src: key: msg" pointed at the option that set key. */
static int explain_invalid(imp *im, const ge_err *sub)
{
    const char *p = strstr(sub->msg, ": ");
    char key[96] = "";
    if (p) {
        const char *q = strstr(p + 2, ": ");
        if (q && (size_t)(q - p - 2) < sizeof key) {
            memcpy(key, p + 2, (size_t)(q - p - 2));
            key[q - p - 2] = 0;
        }
    }
    const gcfg_key *k = gcfg_find_key(key);
    if (k && im->loc[ggsi_key_index(k)].opt) {
        const struct ggsi_loc *l = &im->loc[ggsi_key_index(k)];
        return ge_errf(im->e, "%s:%d: %s: imported value is inconsistent: %s", l->file, l->line, l->opt,
                       p ? p + 2 : sub->msg);
    }
    if (k && !im->set[ggsi_key_index(k)])
        return ge_errf(im->e, "%s: imported config is inconsistent: %s (%s defaulted from %s)", im->mainfile,
                       p ? p + 2 : sub->msg, key, im->basepath);
    return ge_errf(im->e, "%s: imported config is inconsistent: %s", im->mainfile, p ? p + 2 : sub->msg);
}

/* gcfg_write + gcfg_load_string must give back the same values. */
static int round_trip(imp *im)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return ge_errf(im->e, "out of memory");
    gcfg_write(im->cfg, f);
    fclose(f);
    gpu_config *back = malloc(sizeof *back);
    ge_err sub;
    int rc = 0;
    if (!back) {
        rc = ge_errf(im->e, "out of memory");
    } else if (gcfg_load_string(text, im->mainfile, back, &sub)) {
        rc = ge_errf(im->e, "internal: imported config does not load back: %s", sub.msg);
    } else {
        size_t n;
        const gcfg_key *ks = gcfg_keys(&n);
        for (size_t i = 0; i < n && rc == 0; i++) {
            const gcfg_key *k = &ks[i];
            int same = k->type == GCFG_STRING ? !strcmp(gcfg_get_str(im->cfg, k), gcfg_get_str(back, k))
                                              : gcfg_get_num(im->cfg, k) == gcfg_get_num(back, k);
            if (!same)
                rc = ge_errf(im->e, "internal: %s changes when written and read back", k->path);
        }
    }
    free(back);
    free(text);
    return rc;
}

static void default_name(imp *im)
{
    /* ".../SM7_QV100/gpgpusim.config" -> "SM7_QV100"; "x/foo.config" -> "foo.config" */
    const char *path = im->mainfile;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char dir[96] = "";
    if (slash && !strcmp(base, "gpgpusim.config")) {
        const char *d = slash;
        while (d > path && d[-1] != '/')
            d--;
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - d), d);
    }
    if (!dir[0]) { /* "SM7_QV100.config" -> "SM7_QV100" */
        snprintf(dir, sizeof dir, "%s", base);
        size_t n = strlen(dir);
        if (n > 7 && !strcmp(dir + n - 7, ".config"))
            dir[n - 7] = 0;
    }
    snprintf(im->cfg->name, sizeof im->cfg->name, "%s (imported from GPGPU-Sim)", dir);
    size_t n;
    im->set[ggsi_key_index(gcfg_find_key("name"))] = 1;
    (void)gcfg_keys(&n);
}

int ggs_import(const ggs_input *in, size_t nin, gpu_config *cfg, ggs_report *rep, ge_err *e)
{
    if (nin == 0)
        return ge_errf(e, "no input file");
    imp im = {0};
    im.cfg = cfg;
    im.rep = rep;
    im.e = e;
    im.mainfile = in[0].name;
    if (rep)
        memset(rep, 0, sizeof *rep);
    gcfg_keys(&im.nkeys);
    im.set = calloc(im.nkeys, 1);
    im.loc = calloc(im.nkeys, sizeof *im.loc);
    if (!im.set || !im.loc) {
        free(im.set);
        free(im.loc);
        return ge_errf(e, "out of memory");
    }
    int rc = 0;
    for (size_t i = 0; i < nin && rc == 0; i++)
        rc = ggs_opts_parse(&im.opts, in[i].text, in[i].len, in[i].name, e) < 0 ? -1 : 0;
    const arch_row *row = NULL;
    if (rc == 0)
        rc = do_identity(&im, &row);
    if (rc == 0) {
        default_name(&im);
        rc = do_gpu(&im) || do_direct(&im) || do_sm(&im, row) || ggsi_units(&im) || ggsi_caches(&im) ||
             ggsi_memory(&im) || ggsi_power(&im, row) || report_defaults(&im) || report_unused(&im);
    }
    if (rc == 0) {
        snprintf(cfg->source, sizeof cfg->source, "%s", im.mainfile);
        ge_err sub;
        if (gcfg_validate(cfg, &sub))
            rc = explain_invalid(&im, &sub);
    }
    if (rc == 0)
        rc = round_trip(&im);
    free(im.set);
    free(im.loc);
    ggs_opts_free(&im.opts);
    if (rc) {
        ggs_report_free(rep);
        for (char *p = e->msg; *p; p++) /* one line: messages quote user text */
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = ' ';
        return -1;
    }
    return 0;
}

static int read_all(const char *path, char **text, size_t *len, ge_err *e)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return ge_errf(e, "%s: cannot open", path);
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (;;) {
        if (ge_reserve((void **)&buf, &cap, n + 65536, 1, e)) {
            rc = -1;
            break;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
        if (n > (64u << 20)) {
            rc = ge_errf(e, "%s: larger than 64 MiB; not a GPGPU-Sim config", path);
            break;
        }
    }
    if (rc == 0 && ferror(f))
        rc = ge_errf(e, "%s: read error", path);
    fclose(f);
    if (rc) {
        free(buf);
        return -1;
    }
    buf[n] = 0;
    *text = buf;
    *len = n;
    return 0;
}

int ggs_import_files(const char *config_path, const char *trace_path, gpu_config *cfg, ggs_report *rep, ge_err *e)
{
    ggs_input in[2] = {{config_path, NULL, 0}, {trace_path, NULL, 0}};
    size_t nin = trace_path ? 2 : 1;
    int rc = 0;
    for (size_t i = 0; i < nin && rc == 0; i++) {
        char *t = NULL;
        rc = read_all(in[i].name, &t, &in[i].len, e);
        if (rc == 0)
            in[i].text = t;
    }
    if (rc == 0)
        rc = ggs_import(in, nin, cfg, rep, e);
    for (size_t i = 0; i < nin; i++)
        free((char *)in[i].text);
    return rc;
}
