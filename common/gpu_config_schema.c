/*
 * gpu_config_schema.c - the one table of GPU config keys.
 *
 * Each row: dotted path, type, where it lands in gpu_config, valid range (or
 * the allowed words), unit/meaning, and whether it may be omitted (with its
 * default).  Loading, validation, `config show`, sweeps and the GPGPU-Sim
 * importer all use this table, so a new parameter is one row here plus its
 * field in gpu_config.h.
 */
#include <stddef.h>
#include <string.h>

#include "gpu_config.h"

#define OFF(f) offsetof(gpu_config, f)
#define KI(p, f, lo, hi, h) {p, GCFG_INT, OFF(f), lo, hi, NULL, h, 0, 0, NULL}
#define KIO(p, f, lo, hi, h, d) {p, GCFG_INT, OFF(f), lo, hi, NULL, h, 1, d, NULL}
#define KF(p, f, lo, hi, h) {p, GCFG_FLOAT, OFF(f), lo, hi, NULL, h, 0, 0, NULL}
#define KFO(p, f, lo, hi, h, d) {p, GCFG_FLOAT, OFF(f), lo, hi, NULL, h, 1, d, NULL}
#define KS(p, f, ch, h) {p, GCFG_STRING, OFF(f), 0, 0, ch, h, 0, 0, NULL}
#define KSO(p, f, ch, h, d) {p, GCFG_STRING, OFF(f), 0, 0, ch, h, 1, 0, d}

#define MB (1024.0 * 1024.0)

#define CACHE_KEYS(pre, f)                                                                          \
    KI(pre ".size_bytes", f.size_bytes, 0, 1024 * MB, "capacity in bytes (0 = absent)"),           \
    KI(pre ".sets", f.sets, 0, 1 << 20, "number of sets"),                                          \
    KI(pre ".ways", f.ways, 0, 1024, "associativity"),                                              \
    KI(pre ".line_bytes", f.line_bytes, 0, 4096, "line (block) size in bytes"),                     \
    KI(pre ".sector_bytes", f.sector_bytes, 0, 4096, "sector size in bytes (= line if unsectored)"), \
    KI(pre ".banks", f.banks, 0, 1024, "data banks"),                                               \
    KI(pre ".latency_cycles", f.latency_cycles, 0, 10000, "hit latency, core cycles"),              \
    KI(pre ".mshr_entries", f.mshr_entries, 0, 65536, "miss status holding registers"),             \
    KI(pre ".mshr_merge", f.mshr_merge, 0, 1024, "requests merged into one MSHR entry"),            \
    KSO(pre ".replacement", f.replacement, "lru|fifo", "replacement policy", "lru"),                \
    KSO(pre ".write_policy", f.write_policy, "write_back|write_through|write_evict|read_only",      \
        "write policy", "write_back"),                                                              \
    KSO(pre ".allocate", f.allocate, "on_miss|on_fill", "when a line is allocated", "on_miss"),     \
    KSO(pre ".write_allocate", f.write_allocate, "no_write_allocate|write_allocate",                \
        "allocate on write miss?", "no_write_allocate"),                                            \
    KIO(pre ".miss_queue_entries", f.miss_queue_entries, 0, 65536,                                  \
        "misses queued for the next level (0 = not modelled)", 0),                                  \
    KSO(pre ".set_index", f.set_index, "linear|xor",                                                \
        "set index: linear (line number mod sets) or xor (higher line bits folded in)", "linear")

static const gcfg_key keys[] = {
    KS("name", name, NULL, "human-readable GPU name"),

    KS("gpu.arch", gpu.arch, "fermi|kepler|maxwell|pascal|volta|turing|ampere|ada|hopper|custom",
       "architecture generation"),
    KI("gpu.compute_capability", gpu.compute_capability, 10, 200, "SM version x10 (70 = sm_70)"),
    KI("gpu.sm_count", gpu.sm_count, 1, 1024, "streaming multiprocessors"),
    KF("gpu.core_clock_mhz", gpu.core_clock_mhz, 50, 5000, "SM clock, MHz"),
    KF("gpu.icnt_clock_mhz", gpu.icnt_clock_mhz, 50, 5000, "interconnect clock, MHz"),
    KF("gpu.l2_clock_mhz", gpu.l2_clock_mhz, 50, 5000, "L2 clock, MHz"),
    KF("gpu.dram_clock_mhz", gpu.dram_clock_mhz, 50, 10000, "DRAM command clock, MHz"),

    KI("sm.warp_size", sm.warp_size, 32, 32, "threads per warp (gpuest models 32)"),
    KI("sm.max_threads", sm.max_threads, 32, 65536, "resident threads per SM"),
    KI("sm.max_warps", sm.max_warps, 1, 2048, "resident warps per SM"),
    KI("sm.max_ctas", sm.max_ctas, 1, 1024, "resident CTAs per SM"),
    KI("sm.registers", sm.registers, 1024, 1 << 22, "32-bit registers per SM"),
    KI("sm.max_regs_per_thread", sm.max_regs_per_thread, 16, 1024, "register limit per thread"),
    KI("sm.reg_alloc_unit", sm.reg_alloc_unit, 1, 65536, "register allocation granularity per warp"),
    KI("sm.rf_banks", sm.rf_banks, 1, 256, "register-file banks per SM"),
    KIO("sm.rf_bank_ports", sm.rf_bank_ports, 1, 8, "register reads per bank per cycle", 1),
    KI("sm.operand_collectors", sm.operand_collectors, 1, 256, "operand collector units per SM"),
    KI("sm.schedulers", sm.schedulers, 1, 16, "warp schedulers per SM"),
    KS("sm.scheduler", sm.scheduler, "lrr|gto|two_level", "warp scheduling policy"),
    KI("sm.issue_width", sm.issue_width, 1, 4, "instructions per scheduler per cycle (2 = dual issue)"),
    KI("sm.ibuffer_entries", sm.ibuffer_entries, 1, 64, "instruction-buffer entries per warp"),
    KI("sm.fetch_width", sm.fetch_width, 1, 64, "instructions fetched per SM per cycle"),
    KIO("sm.inst_bytes", sm.inst_bytes, 0, 32, "bytes per instruction in the I-cache (0 = 8 below sm_70, else 16)", 0),
    KSO("sm.divergence", sm.divergence, "pdom", "divergence mechanism", "pdom"),
    KI("sm.shared_bytes", sm.shared_bytes, 0, 64 * MB, "shared memory per SM, bytes"),
    KI("sm.shared_per_cta_bytes", sm.shared_per_cta_bytes, 0, 64 * MB, "shared memory limit per CTA"),
    KI("sm.shared_alloc_unit", sm.shared_alloc_unit, 1, 65536, "shared memory allocation granularity"),
    KI("sm.shared_banks", sm.shared_banks, 1, 256, "shared memory banks (4 B wide)"),
    KI("sm.shared_latency_cycles", sm.shared_latency_cycles, 1, 10000, "shared memory load latency"),

#define UNIT_KEY(id, nm) KI("units." nm, units[ISA_UNIT_##id], 0, 1024, "units of this kind per SM"),
    ISA_UNITS(UNIT_KEY)
#undef UNIT_KEY

#define LAT_KEY(id, nm)                                                                      \
    KI("latency." nm ".latency", lat[ISA_LAT_##id].latency, 1, 100000, "cycles issue->result"), \
    KI("latency." nm ".ii", lat[ISA_LAT_##id].ii, 1, 100000, "initiation interval, cycles"),
    ISA_LATS(LAT_KEY)
#undef LAT_KEY

    CACHE_KEYS("l1d", l1d),
    CACHE_KEYS("l1i", l1i),
    CACHE_KEYS("l1c", l1c),
    CACHE_KEYS("l1t", l1t),
    CACHE_KEYS("l2", l2.cache),
    KI("l2.slices", l2.slices, 1, 4096, "L2 slices (memory sub-partitions); size/sets are per slice"),
    KSO("l2.hash", l2.hash, "linear|xor", "address to slice mapping", "xor"),

    KI("noc.flit_bytes", noc.flit_bytes, 1, 1024, "flit size, bytes"),
    KI("noc.latency_cycles", noc.latency_cycles, 0, 10000, "one-way latency, interconnect cycles"),
    KI("noc.port_flits_per_cycle", noc.port_flits_per_cycle, 1, 64, "flits per port per cycle"),
    KI("noc.buffer_flits", noc.buffer_flits, 1, 1 << 20, "input buffer per port, flits"),

    KS("dram.type", dram.type, "GDDR5|GDDR5X|GDDR6|GDDR6X|HBM|HBM2|HBM2E|HBM3", "DRAM technology"),
    KI("dram.channels", dram.channels, 1, 1024, "memory channels (controllers)"),
    KI("dram.bus_bits", dram.bus_bits, 8, 4096, "data bus width per channel, bits"),
    KI("dram.data_rate", dram.data_rate, 1, 16, "data transfers per command clock"),
    KI("dram.burst_length", dram.burst_length, 1, 64, "burst length, transfers"),
    KI("dram.banks", dram.banks, 1, 1024, "banks per channel"),
    KI("dram.bank_groups", dram.bank_groups, 1, 64, "bank groups per channel"),
    KI("dram.row_bytes", dram.row_bytes, 64, 1 << 20, "row (page) size per channel, bytes"),
    KI("dram.queue_entries", dram.queue_entries, 1, 65536, "scheduler queue entries per channel"),
    KS("dram.scheduler", dram.scheduler, "frfcfs|fcfs", "DRAM request scheduler"),
    KI("dram.latency_cycles", dram.latency_cycles, 0, 100000, "fixed controller+PHY latency, DRAM cycles"),
    KI("dram.tCL", dram.tCL, 1, 1000, "CAS latency, DRAM cycles"),
    KI("dram.tWL", dram.tWL, 0, 1000, "write latency"),
    KI("dram.tRCD", dram.tRCD, 1, 1000, "activate to column command"),
    KI("dram.tRP", dram.tRP, 1, 1000, "precharge period"),
    KI("dram.tRAS", dram.tRAS, 1, 1000, "activate to precharge"),
    KI("dram.tRC", dram.tRC, 1, 2000, "activate to activate, same bank"),
    KI("dram.tCCD", dram.tCCD, 1, 1000, "column to column"),
    KI("dram.tCCDL", dram.tCCDL, 1, 1000, "column to column, same bank group"),
    KI("dram.tRRD", dram.tRRD, 1, 1000, "activate to activate, different banks"),
    KI("dram.tWTR", dram.tWTR, 1, 1000, "write to read turnaround"),
    KI("dram.tWR", dram.tWR, 1, 1000, "write recovery"),
    KI("dram.tRTP", dram.tRTP, 1, 1000, "read to precharge"),
    KIO("dram.tFAW", dram.tFAW, 0, 1000, "four-activate window (0 = none)", 0),
    KIO("dram.tRFC", dram.tRFC, 0, 100000, "refresh cycle time (0 = no refresh)", 0),
    KIO("dram.tREFI", dram.tREFI, 0, 1000000, "refresh interval (0 = no refresh)", 0),
    KIO("dram.write_drain_high", dram.write_high, 0, 65536,
        "queued writes that start a write drain (0 = no drain: reads and writes by age)", 0),
    KIO("dram.write_drain_low", dram.write_low, 0, 65536, "queued writes that end a write drain", 0),

    KI("power.technology_nm", power.technology_nm, 3, 180, "process node, nm"),
    KF("power.temperature_k", power.temperature_k, 250, 400, "junction temperature, K"),
    KF("power.die_area_mm2", power.die_area_mm2, 1, 2000, "die area, mm^2"),
    KF("power.tdp_w", power.tdp_w, 1, 2000, "thermal design power, W"),
    KF("power.constant_w", power.constant_w, 0, 1000, "constant board power (fans, VRM), W"),
    KF("power.vdd_v", power.vdd_v, 0.3, 2.0, "nominal core voltage at core_clock_mhz, V"),
    KIO("power.lane_static", power.lane_static, 0, 1, "1: static power scales with active lanes", 0),
#define SCALE_KEY(id, nm, desc) \
    KFO("power.scale." nm, power.scale[PWR_##id], 0, 100, "calibration factor: " desc, 1.0),
    PWR_COMPONENTS(SCALE_KEY)
#undef SCALE_KEY

    KFO("reference.l1_hit_latency_cycles", ref.l1_hit_latency_cycles, 0, 1e4, "published L1 hit latency", 0),
    KFO("reference.l2_hit_latency_cycles", ref.l2_hit_latency_cycles, 0, 1e4, "published L2 hit latency", 0),
    KFO("reference.dram_latency_cycles", ref.dram_latency_cycles, 0, 1e5, "published DRAM latency", 0),
    KFO("reference.dram_bandwidth_gbs", ref.dram_bandwidth_gbs, 0, 1e5, "published streaming bandwidth, GB/s", 0),
    KFO("reference.fp32_gflops", ref.fp32_gflops, 0, 1e7, "published peak FP32 FMA, GFLOP/s", 0),
    KFO("reference.shared_latency_cycles", ref.shared_latency_cycles, 0, 1e4, "published shared memory latency", 0),
};

const gcfg_key *gcfg_keys(size_t *n)
{
    *n = sizeof keys / sizeof *keys;
    return keys;
}

const gcfg_key *gcfg_find_key(const char *path)
{
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (strcmp(keys[i].path, path) == 0)
            return &keys[i];
    return NULL;
}
