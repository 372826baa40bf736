/*
 * pwr_model.c - building the energy-per-event table and evaluating power.
 *
 * pwr_create() turns a GPU config into two lists:
 *   events - (activity source, component, energy per count): every
 *            dynamic energy, one row per thing that happens (an L1 read hit,
 *            a lane FMA, a warp-wide register read, a DRAM activate, an SM
 *            cycle with or without resident warps);
 *   leaks  - leakage per structure (CACTI arrays x instances, SIMD-lane
 *            datapaths from published unit areas, and the rest of the die).
 * pwr_eval() is then a dot product of the activity with the event energies
 * (~100 multiply-adds, well under a microsecond), plus leakage, idle-SM and
 * constant power, calibration factors, and DVFS scaling.  Because the
 * result depends on the act_counters alone, the same counts give the same
 * power whether they come from the simulator, the model or hardware.
 *
 * The decomposition follows GPUWattch (Leng et al., ISCA 2013) and
 * AccelWattch (Kandiah et al., MICRO 2021): P = P_const + P_static +
 * P_idle_SM + sum of per-component dynamic power, with AccelWattch's
 * component list (common/power_components.h).  Unlike both, no coefficient
 * is fitted to measurements here: energies come from CACTI and published
 * per-operation figures (pwr_int.h), and measured fits go into the
 * power.scale.<component> factors (calib/).
 *
 * What each counter costs (energy at the nominal point; see docs/power.md):
 *   front end   ibuffer write/read, I-cache hit (tag + line read) or miss
 *               (tag + MSHR + fill), scheduler issue (Horowitz control)
 *   RF          warp-wide read: bank read + operand-collector write and read
 *               + operand wires to the lanes; write: bank write + wires
 *   caches      hit: tag + sector read (+ wires to the lanes for L1s);
 *               miss: tag + MSHR search/write + sector fill
 *   shared      per bank cycle: one 32-bit word in each of min(banks,
 *               warp) banks (an upper bound for partial warps) + wires
 *   lanes       published per-operation energy per active lane
 *   pipeline    per active lane: latched operand bits x stages; per active
 *               SM-cycle: clocking the SM's pipeline registers
 *   idle SM     per SM-cycle without resident warps: the same clocking
 *   L2/NoC/MC   per sector access / flit (wire over the mean path + buffer)
 *               / request (queue CAM)
 *   DRAM        per burst: bits x pJ/bit of the type; per activate and
 *               precharge: half the row's activation energy each
 * Counters without an energy of their own: cycles (time), warp/thread
 * instruction totals (the lane events count them by kind), RF bank
 * conflicts (delay, not extra accesses), pipe_busy (kept for calibration).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pwr_int.h"

#define MAX_EVENTS 128
#define MAX_LEAKS 48
#define MAX_ARRAYS 32 /* 4 SM arrays + 5 caches x 3 parts + NoC + MC = 21 */

struct pwr_model {
    gpu_config cfg;
    pwr_tech tech;
    pwr_array arr[MAX_ARRAYS];
    size_t narr;
    pwr_event ev[MAX_EVENTS];
    size_t nev;
    pwr_leak lk[MAX_LEAKS];
    size_t nlk;
    double leak_lane_w, leak_other_w; /* nominal point */
    double sm_clock_j;                /* clocking one SM for one cycle */
    double logic_leak_w_mm2;
    int overflow; /* an add_ev/add_leak/new_array found its table full */
};

/* ---- building ---- */

static pwr_array *new_array(pwr_model *m)
{
    if (m->narr < MAX_ARRAYS)
        return &m->arr[m->narr++];
    m->overflow = 1;
    return &m->arr[MAX_ARRAYS - 1]; /* scratch; pwr_create fails on overflow */
}

static void add_ev(pwr_model *m, const char *name, pwr_component comp, pwr_src src, int idx,
                   double j, int core_rail, const char *fmt, ...) GE_PRINTF(8, 9);

static void add_ev(pwr_model *m, const char *name, pwr_component comp, pwr_src src, int idx,
                   double j, int core_rail, const char *fmt, ...)
{
    if (m->nev >= MAX_EVENTS) {
        m->overflow = 1; /* sized for the fixed list below; pwr_create reports it */
        return;
    }
    pwr_event *ev = &m->ev[m->nev++];
    snprintf(ev->name, sizeof ev->name, "%s", name);
    ev->comp = comp;
    ev->src = src;
    ev->idx = idx;
    ev->energy_j = j;
    ev->core_rail = core_rail;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ev->source, sizeof ev->source, fmt, ap);
    va_end(ap);
}

static void add_leak(pwr_model *m, const char *name, pwr_component comp, double w, int lane,
                     const char *source)
{
    if (!(w > 0))
        return;
    if (m->nlk >= MAX_LEAKS) {
        m->overflow = 1;
        return;
    }
    pwr_leak *l = &m->lk[m->nlk++];
    snprintf(l->name, sizeof l->name, "%s", name);
    l->comp = comp;
    l->watts = w;
    l->lane = lane;
    snprintf(l->source, sizeof l->source, "%s", source);
}

/* Energy in J of a Horowitz 45 nm figure at the config. */
static double h45(const pwr_model *m, double pj)
{
    return pwr_logic_j(&m->tech, pj, PWR_H45_NODE_NM, PWR_H45_VDD_V);
}

static double k40(const pwr_model *m, double pj)
{
    return pwr_logic_j(&m->tech, pj, PWR_K40_NODE_NM, PWR_K40_VDD_V);
}

static uint32_t lat_ii(const gpu_config *c, isa_lat l)
{
    return c->lat[l].ii ? c->lat[l].ii : 1;
}

/* Latency class that times each unit pool (for lanes and pipeline depth). */
static const isa_lat unit_lat[ISA_UNIT_COUNT] = {
    [ISA_UNIT_INT] = ISA_LAT_INT,       [ISA_UNIT_FP32] = ISA_LAT_FP32,
    [ISA_UNIT_FP64] = ISA_LAT_FP64,     [ISA_UNIT_SFU] = ISA_LAT_SFU,
    [ISA_UNIT_TENSOR] = ISA_LAT_TENSOR, [ISA_UNIT_LDST] = ISA_LAT_MEM,
    [ISA_UNIT_BRANCH] = ISA_LAT_BRANCH,
};

/* SIMD lanes of one unit of pool u: a warp instruction occupies it for ii
 * cycles, so it has warp_size / ii lanes. */
static double unit_lanes(const gpu_config *c, isa_unit u)
{
    return (double)c->sm.warp_size / lat_ii(c, unit_lat[u]);
}

static int build_arrays(pwr_model *m, pwr_cache *l1i, pwr_cache *l1d, pwr_cache *l1c, pwr_cache *l1t,
                        pwr_cache *l2, pwr_array **rf, pwr_array **oc, pwr_array **ib,
                        pwr_array **sh, pwr_array **nocbuf, pwr_array **mcq, ge_err *e)
{
    const gpu_config *c = &m->cfg;
    const pwr_tech *t = &m->tech;
    double sms = c->gpu.sm_count;
    uint32_t warp_bits = c->sm.warp_size * 32;
    double ibits = pwr_instr_bits(c->gpu.arch);

    /* RF banks are separate arrays next to their lanes (one per sub-core
     * half), so each is solved alone: a CACTI multi-bank request would add
     * an H-tree spanning all banks to every access. */
    uint32_t rfb = c->sm.rf_banks ? c->sm.rf_banks : 1;
    *rf = new_array(m);
    if (pwr_array_ram(*rf, t, "regfile.bank", PWR_REGFILE, (uint64_t)c->sm.registers * 4 / rfb,
                      warp_bits / 8, warp_bits, 1, sms * rfb, e))
        return -1;
    /* Operand collectors: 3 source operands of warp width each. */
    *oc = new_array(m);
    if (pwr_array_ram(*oc, t, "regfile.collector", PWR_REGFILE,
                      (uint64_t)(c->sm.operand_collectors ? c->sm.operand_collectors : 1) * 3 * warp_bits / 8,
                      warp_bits / 8, warp_bits, 1, sms, e))
        return -1;
    *ib = new_array(m);
    if (pwr_array_ram(*ib, t, "ibuffer", PWR_IBUFFER,
                      (uint64_t)c->sm.max_warps * (c->sm.ibuffer_entries ? c->sm.ibuffer_entries : 1) *
                          (uint64_t)(ibits / 8),
                      (uint32_t)(ibits / 8), (uint32_t)ibits, c->sm.schedulers, sms, e))
        return -1;
    /* Shared memory: one warp-wide access reads one 32-bit word in each of
     * min(banks, warp) banks at once - a row of that width of one array. */
    uint32_t shw = c->sm.shared_banks < c->sm.warp_size ? c->sm.shared_banks : c->sm.warp_size;
    *sh = new_array(m);
    if (pwr_array_ram(*sh, t, "shared", PWR_SHARED, c->sm.shared_bytes, shw * 4, shw * 32, 1, sms, e))
        return -1;
    if (pwr_cache_build(l1i, t, "icache", PWR_ICACHE, &c->l1i, sms, e) ||
        pwr_cache_build(l1d, t, "l1d", PWR_L1D, &c->l1d, sms, e) ||
        pwr_cache_build(l1c, t, "const", PWR_CONST, &c->l1c, sms, e) ||
        pwr_cache_build(l1t, t, "tex", PWR_TEX, &c->l1t, sms, e) ||
        pwr_cache_build(l2, t, "l2", PWR_L2, &c->l2.cache, c->l2.slices, e))
        return -1;
    pwr_cache *caches[] = {l1i, l1d, l1c, l1t, l2};
    for (size_t i = 0; i < sizeof caches / sizeof *caches; i++) {
        pwr_array *parts[] = {&caches[i]->data, &caches[i]->tag, &caches[i]->mshr};
        for (size_t p = 0; p < 3; p++)
            if (parts[p]->present) {
                pwr_array *a = new_array(m);
                if (a)
                    *a = *parts[p];
            }
    }
    /* NoC input buffers, one per router port (SMs + L2 slices). */
    *nocbuf = new_array(m);
    uint32_t flit = c->noc.flit_bytes ? c->noc.flit_bytes : 32;
    if (pwr_array_ram(*nocbuf, t, "noc.buffer", PWR_NOC,
                      (uint64_t)(c->noc.buffer_flits ? c->noc.buffer_flits : 1) * flit, flit, flit * 8, 1,
                      sms + c->l2.slices, e))
        return -1;
    /* Memory-controller request queue: a CAM the FR-FCFS scheduler searches
     * for row hits (entry: address + request id, PWR_ADDR_BITS + 16 bits). */
    *mcq = new_array(m);
    if (pwr_array_cam(*mcq, t, "mc.queue", PWR_MC, c->dram.queue_entries, PWR_ADDR_BITS + 16,
                      c->dram.channels, e))
        return -1;
    return 0;
}

static void cache_events(pwr_model *m, const pwr_cache *k, const char *nm, pwr_component comp,
                         act_id hit, act_id miss, double wire_j)
{
    char name[48];
    if (!k->data.present)
        return;
    double tag = pwr_cache_tag_j(k);
    double mshr = k->mshr.present ? k->mshr.search_j + k->mshr.write_j : 0;
    snprintf(name, sizeof name, "%s.hit", nm);
    add_ev(m, name, comp, PWR_SRC_ACT, hit, tag + k->data.read_j + wire_j, 1,
           "cacti: %s.tag lookup + %s.data sector read%s", nm, nm, wire_j > 0 ? " + wires" : "");
    snprintf(name, sizeof name, "%s.miss", nm);
    add_ev(m, name, comp, PWR_SRC_ACT, miss, tag + mshr + k->data.write_j + wire_j, 1,
           "cacti: %s.tag lookup + MSHR search/write + sector fill%s", nm, wire_j > 0 ? " + wires" : "");
}

static void build_events(pwr_model *m, const pwr_cache *l1i, const pwr_cache *l1d,
                         const pwr_cache *l1c, const pwr_cache *l1t, const pwr_cache *l2,
                         const pwr_array *rf, const pwr_array *oc, const pwr_array *ib,
                         const pwr_array *sh, const pwr_array *nocbuf, const pwr_array *mcq)
{
    const gpu_config *c = &m->cfg;
    double warp_bits = c->sm.warp_size * 32.0;
    double tile_mm = sqrt(c->power.die_area_mm2 / c->gpu.sm_count);
    double op_mm = PWR_OPERAND_WIRE_TILE_FRACTION * tile_mm;
    double wire_warp = pwr_wire_j(&m->tech, warp_bits, op_mm);

    /* Front end. */
    add_ev(m, "ibuffer.write", PWR_IBUFFER, PWR_SRC_ACT, ACT_IBUFFER_WRITES, ib->write_j, 1,
           "cacti: ibuffer entry write");
    add_ev(m, "ibuffer.read", PWR_IBUFFER, PWR_SRC_ACT, ACT_IBUFFER_READS, ib->read_j, 1,
           "cacti: ibuffer entry read");
    if (l1i->data.present) {
        double tag = pwr_cache_tag_j(l1i), mshr = l1i->mshr.search_j + l1i->mshr.write_j;
        add_ev(m, "icache.hit", PWR_ICACHE, PWR_SRC_ACT, ACT_ICACHE_HITS, tag + l1i->data.read_j, 1,
               "cacti: icache.tag lookup + icache.data read");
        add_ev(m, "icache.miss", PWR_ICACHE, PWR_SRC_ACT, ACT_ICACHE_MISSES,
               tag + mshr + l1i->data.write_j, 1, "cacti: icache.tag lookup + MSHR + line fill");
    }
    add_ev(m, "scheduler.issue", PWR_SCHED, PWR_SRC_ACT, ACT_SCHED_ISSUES, h45(m, PWR_H45_CONTROL_PJ),
           1, "Horowitz ISSCC'14: 70 pJ RISC instr - 25 I$ - 6 RF = 39 pJ control @45nm");

    /* Register file. */
    add_ev(m, "regfile.read", PWR_REGFILE, PWR_SRC_ACT, ACT_RF_READS,
           rf->read_j + oc->write_j + oc->read_j + wire_warp, 1,
           "cacti: bank read + collector write/read; wires %.2f mm (Keckler'11)", op_mm);
    add_ev(m, "regfile.write", PWR_REGFILE, PWR_SRC_ACT, ACT_RF_WRITES, rf->write_j + wire_warp, 1,
           "cacti: bank write; wires %.2f mm (Keckler'11)", op_mm);

    /* L1-level caches: the sector travels to the lanes over the operand wires. */
    double sector_wire_l1d = pwr_wire_j(&m->tech, 8.0 * (c->l1d.sector_bytes ? c->l1d.sector_bytes : c->l1d.line_bytes), op_mm);
    if (l1d->data.present) {
        double tag = pwr_cache_tag_j(l1d), mshr = l1d->mshr.search_j + l1d->mshr.write_j;
        int walloc = !strcmp(c->l1d.write_allocate, "write_allocate");
        add_ev(m, "l1d.read_hit", PWR_L1D, PWR_SRC_ACT, ACT_L1_READ_HITS,
               tag + l1d->data.read_j + sector_wire_l1d, 1, "cacti: l1d.tag + sector read + wires");
        add_ev(m, "l1d.read_miss", PWR_L1D, PWR_SRC_ACT, ACT_L1_READ_MISSES,
               tag + mshr + l1d->data.write_j + sector_wire_l1d, 1,
               "cacti: l1d.tag + MSHR search/write + sector fill + wires");
        add_ev(m, "l1d.write_hit", PWR_L1D, PWR_SRC_ACT, ACT_L1_WRITE_HITS,
               tag + l1d->data.write_j + sector_wire_l1d, 1, "cacti: l1d.tag + sector write + wires");
        add_ev(m, "l1d.write_miss", PWR_L1D, PWR_SRC_ACT, ACT_L1_WRITE_MISSES,
               tag + (walloc ? l1d->data.write_j : 0) + sector_wire_l1d, 1,
               walloc ? "cacti: l1d.tag + sector write (write-allocate) + wires"
                      : "cacti: l1d.tag (no write-allocate) + wires");
    }
    cache_events(m, l1c, "const", PWR_CONST, ACT_CONST_HITS, ACT_CONST_MISSES,
                 pwr_wire_j(&m->tech, 8.0 * (c->l1c.sector_bytes ? c->l1c.sector_bytes : c->l1c.line_bytes), op_mm));
    cache_events(m, l1t, "tex", PWR_TEX, ACT_TEX_HITS, ACT_TEX_MISSES,
                 pwr_wire_j(&m->tech, 8.0 * (c->l1t.sector_bytes ? c->l1t.sector_bytes : c->l1t.line_bytes), op_mm));

    /* Shared memory. */
    if (sh->present) {
        add_ev(m, "shared.read", PWR_SHARED, PWR_SRC_ACT, ACT_SHARED_READS, sh->read_j + wire_warp, 1,
               "cacti: one word from each bank (warp-wide row) + wires");
        add_ev(m, "shared.write", PWR_SHARED, PWR_SRC_ACT, ACT_SHARED_WRITES, sh->write_j + wire_warp, 1,
               "cacti: one word into each bank (warp-wide row) + wires");
    }

    /* Lanes: published per-operation energies, per active lane. */
    double fma32 = PWR_H45_FP32_ADD_PJ + PWR_H45_FP32_MUL_PJ;
    add_ev(m, "int_alu", PWR_INT_ALU, PWR_SRC_LANES, ISA_OP_INT_ALU, h45(m, PWR_H45_INT_ADD32_PJ), 1,
           "Horowitz ISSCC'14: 32-bit add 0.1 pJ @45nm");
    add_ev(m, "misc", PWR_INT_ALU, PWR_SRC_LANES, ISA_OP_MISC, h45(m, PWR_H45_INT_ADD32_PJ), 1,
           "as int_alu (moves, predicates, shuffles: adder-class)");
    add_ev(m, "int_mul", PWR_INT_MUL, PWR_SRC_LANES, ISA_OP_INT_MUL, h45(m, PWR_H45_INT_MUL32_PJ), 1,
           "Horowitz ISSCC'14: 32-bit multiply 3.1 pJ @45nm");
    add_ev(m, "int_div", PWR_INT_DIV, PWR_SRC_LANES, ISA_OP_INT_DIV,
           h45(m, PWR_INT_DIV_MULS * PWR_H45_INT_MUL32_PJ), 1,
           "estimate: no HW divider, ~%g IMAD-class ops (Horowitz mult)", PWR_INT_DIV_MULS);
    add_ev(m, "fp32_add", PWR_FP32_ADD, PWR_SRC_LANES, ISA_OP_FP32_ADD, h45(m, PWR_H45_FP32_ADD_PJ), 1,
           "Horowitz ISSCC'14: FP32 add 0.9 pJ @45nm");
    add_ev(m, "conv", PWR_FP32_ADD, PWR_SRC_LANES, ISA_OP_CONV, h45(m, PWR_H45_FP32_ADD_PJ), 1,
           "estimate: conversion ~ FP32 add (align/normalise datapath)");
    add_ev(m, "fp32_mul", PWR_FP32_MUL, PWR_SRC_LANES, ISA_OP_FP32_MUL, h45(m, PWR_H45_FP32_MUL_PJ), 1,
           "Horowitz ISSCC'14: FP32 multiply 3.7 pJ @45nm");
    add_ev(m, "fp32_fma", PWR_FP32_FMA, PWR_SRC_LANES, ISA_OP_FP32_FMA, h45(m, fma32), 1,
           "Horowitz ISSCC'14: FP32 mul + add = 4.6 pJ @45nm");
    add_ev(m, "sfu_rcp", PWR_SFU_DIV, PWR_SRC_LANES, ISA_OP_SFU_RCP, h45(m, PWR_SFU_BASE_PJ_45), 1,
           "estimate: interpolator = 2 FP32 mul + add (Oberman&Siu'05)");
    add_ev(m, "fp32_div", PWR_SFU_DIV, PWR_SRC_LANES, ISA_OP_FP32_DIV,
           h45(m, PWR_SFU_BASE_PJ_45 + 2.0 * fma32), 1, "estimate: rcp + 2 FMA (Newton step, multiply)");
    add_ev(m, "sfu_sqrt", PWR_SFU_SQRT, PWR_SRC_LANES, ISA_OP_SFU_SQRT,
           h45(m, PWR_SFU_BASE_PJ_45 + PWR_H45_FP32_MUL_PJ), 1, "estimate: rsqrt + multiply");
    add_ev(m, "sfu_log", PWR_SFU_LOG, PWR_SRC_LANES, ISA_OP_SFU_LOG,
           h45(m, PWR_SFU_BASE_PJ_45 + PWR_H45_FP32_MUL_PJ), 1, "estimate: lg2 + scaling multiply");
    add_ev(m, "sfu_sin", PWR_SFU_SIN, PWR_SRC_LANES, ISA_OP_SFU_SIN,
           h45(m, PWR_SFU_BASE_PJ_45 + PWR_H45_FP32_MUL_PJ), 1, "estimate: range reduction mul + sin");
    add_ev(m, "sfu_exp", PWR_SFU_EXP, PWR_SRC_LANES, ISA_OP_SFU_EXP,
           h45(m, PWR_SFU_BASE_PJ_45 + PWR_H45_FP32_MUL_PJ), 1, "estimate: scaling multiply + ex2");
    double add_share = PWR_H45_FP32_ADD_PJ / fma32, mul_share = PWR_H45_FP32_MUL_PJ / fma32;
    add_ev(m, "fp64_add", PWR_FP64, PWR_SRC_LANES, ISA_OP_FP64_ADD, k40(m, PWR_K40_DFMA_PJ * add_share),
           1, "Keckler'11 DFMA 50 pJ @40nm x FP32 add share of FMA (Horowitz)");
    add_ev(m, "fp64_mul", PWR_FP64, PWR_SRC_LANES, ISA_OP_FP64_MUL, k40(m, PWR_K40_DFMA_PJ * mul_share),
           1, "Keckler'11 DFMA 50 pJ @40nm x FP32 mul share of FMA (Horowitz)");
    add_ev(m, "fp64_fma", PWR_FP64, PWR_SRC_LANES, ISA_OP_FP64_FMA, k40(m, PWR_K40_DFMA_PJ), 1,
           "Keckler IEEE Micro'11: 64-bit DFMA 50 pJ @40nm");
    add_ev(m, "fp64_div", PWR_FP64, PWR_SRC_LANES, ISA_OP_FP64_DIV,
           k40(m, PWR_FP64_DIV_DFMAS * PWR_K40_DFMA_PJ), 1, "estimate: %g DFMA (Newton-Raphson)",
           PWR_FP64_DIV_DFMAS);
    double macs = pwr_tensor_macs_per_cycle(c->gpu.arch) * lat_ii(c, ISA_LAT_TENSOR);
    add_ev(m, "tensor", PWR_TENSOR, PWR_SRC_WARPS, ISA_OP_TENSOR,
           macs * h45(m, PWR_H45_FP16_MUL_PJ + PWR_H45_FP32_ADD_PJ), 1,
           "%g MAC/warp inst (whitepaper MAC/clk x ii) x (FP16 mul + FP32 add, Horowitz)", macs);

    /* Pipeline: data latches per lane op, clocking per active SM-cycle. */
    double ff = h45(m, PWR_FF_CLOCK_FJ_45 * 1e-3);
    for (int k = 0; k < ISA_OP_COUNT; k++) {
        if (k == ISA_OP_NOP)
            continue;
        double stages = c->lat[isa_ops[k].lat].latency ? c->lat[isa_ops[k].lat].latency : 1;
        double bits = PWR_LANE_LATCH_BITS * (isa_ops[k].unit == ISA_UNIT_FP64 ? 2.0 : 1.0);
        char name[48];
        snprintf(name, sizeof name, "pipe.%s", isa_ops[k].name);
        add_ev(m, name, PWR_PIPELINE, PWR_SRC_LANES, k, bits * stages * PWR_DATA_ACTIVITY * ff, 1,
               "estimate: %g latch bits x %g stages x %g toggle x FF energy", bits, stages,
               PWR_DATA_ACTIVITY);
    }
    add_ev(m, "pipeline.clock", PWR_PIPELINE, PWR_SRC_ACT, ACT_ACTIVE_SM_CYCLES, m->sm_clock_j, 1,
           "estimate: SM pipeline register bits x FF clock energy (%g fJ @45nm)", PWR_FF_CLOCK_FJ_45);
    add_ev(m, "idle_sm.cycle", PWR_IDLE_SM, PWR_SRC_IDLE_SM, 0, m->sm_clock_j, 1,
           "as pipeline.clock: an SM without warps still clocks its pipeline");

    /* L2, NoC, MC. */
    if (l2->data.present) {
        double tag = pwr_cache_tag_j(l2), mshr = l2->mshr.search_j + l2->mshr.write_j;
        add_ev(m, "l2.read_hit", PWR_L2, PWR_SRC_ACT, ACT_L2_READ_HITS, tag + l2->data.read_j, 1,
               "cacti: l2.tag + sector read");
        add_ev(m, "l2.read_miss", PWR_L2, PWR_SRC_ACT, ACT_L2_READ_MISSES, tag + mshr + l2->data.write_j, 1,
               "cacti: l2.tag + MSHR search/write + sector fill");
        add_ev(m, "l2.write_hit", PWR_L2, PWR_SRC_ACT, ACT_L2_WRITE_HITS, tag + l2->data.write_j, 1,
               "cacti: l2.tag + sector write");
        add_ev(m, "l2.write_miss", PWR_L2, PWR_SRC_ACT, ACT_L2_WRITE_MISSES, tag + l2->data.write_j, 1,
               "cacti: l2.tag + sector write (allocate with byte mask)");
    }
    double noc_mm = PWR_NOC_MEAN_PATH_SIDES * sqrt(c->power.die_area_mm2);
    double flit_bits = 8.0 * (c->noc.flit_bytes ? c->noc.flit_bytes : 32);
    add_ev(m, "noc.flit", PWR_NOC, PWR_SRC_ACT, ACT_NOC_FLITS,
           pwr_wire_j(&m->tech, flit_bits, noc_mm) + nocbuf->write_j + nocbuf->read_j, 1,
           "wire %g bits x %.1f mm (2/3 die side; Keckler'11) + cacti buffer write/read", flit_bits,
           noc_mm);
    add_ev(m, "mc.request", PWR_MC, PWR_SRC_ACT, ACT_MC_REQUESTS,
           mcq->search_j + mcq->write_j + mcq->read_j, 1, "cacti: queue CAM search + write + read");

    /* DRAM (its own rail: not scaled by core DVFS). */
    const pwr_dram_tech *d = pwr_dram_lookup(c->dram.type);
    double burst_bits = (double)c->dram.bus_bits * c->dram.burst_length;
    double row_j = c->dram.row_bytes * 8.0 * PWR_DRAM_ROW_PJ_PER_BIT * 1e-12;
    if (d) {
        add_ev(m, "dram.read", PWR_DRAM, PWR_SRC_ACT, ACT_DRAM_READS, burst_bits * d->pj_per_bit * 1e-12,
               0, "%g bits/burst x %.2f pJ/bit: %s", burst_bits, d->pj_per_bit, d->source);
        add_ev(m, "dram.write", PWR_DRAM, PWR_SRC_ACT, ACT_DRAM_WRITES, burst_bits * d->pj_per_bit * 1e-12,
               0, "%g bits/burst x %.2f pJ/bit: %s", burst_bits, d->pj_per_bit, d->source);
    }
    add_ev(m, "dram.activate", PWR_DRAM, PWR_SRC_ACT, ACT_DRAM_ACTIVATES, 0.5 * row_j, 0,
           "estimate: half of %u B row x %g pJ/bit (Micron TN-40-07 method)", c->dram.row_bytes,
           PWR_DRAM_ROW_PJ_PER_BIT);
    add_ev(m, "dram.precharge", PWR_DRAM, PWR_SRC_ACT, ACT_DRAM_PRECHARGES, 0.5 * row_j, 0,
           "estimate: other half of the row activation energy");
}

/* Bits of pipeline registers clocked every cycle in one SM. */
static double sm_latch_bits(const gpu_config *c)
{
    double bits = 0;
    for (int u = 0; u < ISA_UNIT_COUNT; u++) {
        double stages = c->lat[unit_lat[u]].latency ? c->lat[unit_lat[u]].latency : 1;
        double w = PWR_LANE_LATCH_BITS * (u == ISA_UNIT_FP64 ? 2.0 : 1.0);
        bits += c->units[u] * unit_lanes(c, (isa_unit)u) * stages * w;
    }
    return bits;
}

static void build_leaks(pwr_model *m)
{
    const gpu_config *c = &m->cfg;
    double arrays_mm2 = 0;
    for (size_t i = 0; i < m->narr; i++) {
        const pwr_array *a = &m->arr[i];
        if (!a->present)
            continue;
        arrays_mm2 += a->area_mm2 * a->count;
        add_leak(m, a->name, a->comp, a->leak_w * a->count, 0, "cacti leakage x instances");
    }
    /* SIMD-lane datapaths from Horowitz's unit areas (45 nm, scaled ~node^2). */
    double a45 = (m->tech.node_nm / PWR_H45_NODE_NM) * (m->tech.node_nm / PWR_H45_NODE_NM) * 1e-6;
    double d = m->logic_leak_w_mm2, sms = c->gpu.sm_count;
    struct {
        isa_unit u;
        pwr_component comp;
        const char *name;
        double um2;
    } lanes[] = {
        {ISA_UNIT_INT, PWR_INT_ALU, "lanes.int", PWR_H45_INT_ADD32_UM2 + PWR_H45_INT_MUL32_UM2},
        {ISA_UNIT_FP32, PWR_FP32_FMA, "lanes.fp32", PWR_H45_FP32_ADD_UM2 + PWR_H45_FP32_MUL_UM2},
        {ISA_UNIT_FP64, PWR_FP64, "lanes.fp64",
         2.0 * PWR_H45_FP32_ADD_UM2 + PWR_FP64_MUL_AREA_RATIO * PWR_H45_FP32_MUL_UM2},
        {ISA_UNIT_SFU, PWR_SFU_DIV, "lanes.sfu", 2.0 * PWR_H45_FP32_MUL_UM2 + PWR_H45_FP32_ADD_UM2},
    };
    double lanes_mm2 = 0;
    for (size_t i = 0; i < sizeof lanes / sizeof *lanes; i++) {
        double mm2 = sms * c->units[lanes[i].u] * unit_lanes(c, lanes[i].u) * lanes[i].um2 * a45;
        lanes_mm2 += mm2;
        add_leak(m, lanes[i].name, lanes[i].comp, mm2 * d, 1,
                 "Horowitz'14 unit areas x lanes x logic leakage density");
    }
    double tc_mm2 = sms * c->units[ISA_UNIT_TENSOR] * pwr_tensor_macs_per_cycle(c->gpu.arch) *
                    (PWR_H45_FP16_MUL_UM2 + PWR_H45_FP32_ADD_UM2) * a45;
    lanes_mm2 += tc_mm2;
    add_leak(m, "lanes.tensor", PWR_TENSOR, tc_mm2 * d, 1,
             "MACs/clk x (FP16 mul + FP32 add area, Horowitz'14) x density");
    double rest = c->power.die_area_mm2 - arrays_mm2 - lanes_mm2;
    add_leak(m, "other logic", PWR_STATIC, (rest > 0 ? rest : 0) * d, 0,
             "(die area - arrays - lanes) x HP leakage density (cacti proxy)");
    m->leak_lane_w = m->leak_other_w = 0;
    for (size_t i = 0; i < m->nlk; i++) {
        if (m->lk[i].lane)
            m->leak_lane_w += m->lk[i].watts;
        else
            m->leak_other_w += m->lk[i].watts;
    }
}

pwr_model *pwr_create(const gpu_config *cfg, ge_err *e)
{
    if (!cfg)
        return ge_errf(e, "power: no config"), NULL;
    if (!pwr_dram_lookup(cfg->dram.type))
        return ge_errf(e, "power: dram.type \"%s\" has no energy figures", cfg->dram.type), NULL;
    if (!(cfg->gpu.core_clock_mhz > 0) || cfg->gpu.sm_count == 0 || !(cfg->power.vdd_v > 0) ||
        !(cfg->power.die_area_mm2 > 0))
        return ge_errf(e, "power: config lacks core clock, SM count, vdd or die area"), NULL;
    pwr_model *m = ge_calloc(1, sizeof *m, e);
    if (!m)
        return NULL;
    m->cfg = *cfg;
    pwr_tech_init(&m->tech, cfg);
    pwr_cache l1i, l1d, l1c, l1t, l2;
    pwr_array *rf, *oc, *ib, *sh, *nocbuf, *mcq;
    if (build_arrays(m, &l1i, &l1d, &l1c, &l1t, &l2, &rf, &oc, &ib, &sh, &nocbuf, &mcq, e) ||
        pwr_logic_leak_density(&m->tech, &m->logic_leak_w_mm2, e)) {
        free(m);
        return NULL;
    }
    m->sm_clock_j = sm_latch_bits(cfg) * h45(m, PWR_FF_CLOCK_FJ_45 * 1e-3);
    build_events(m, &l1i, &l1d, &l1c, &l1t, &l2, rf, oc, ib, sh, nocbuf, mcq);
    build_leaks(m);
    if (m->overflow) {
        free(m);
        return ge_errf(e, "power: internal table full (raise MAX_EVENTS/MAX_LEAKS/MAX_ARRAYS)"), NULL;
    }
    return m;
}

void pwr_free(pwr_model *m)
{
    free(m);
}

/* ---- evaluation ---- */

int pwr_point(const pwr_model *m, int dvfs, double *freq_mhz, double *vdd_v)
{
    if (dvfs == PWR_NOMINAL) {
        *freq_mhz = m->cfg.gpu.core_clock_mhz;
        *vdd_v = m->cfg.power.vdd_v;
        return 0;
    }
    if (dvfs < 0 || (uint32_t)dvfs >= m->cfg.power.ndvfs)
        return -1;
    *freq_mhz = m->cfg.power.dvfs[dvfs].freq_mhz;
    *vdd_v = m->cfg.power.dvfs[dvfs].vdd_v;
    return 0;
}

static double src_count(const pwr_model *m, const act_counters *a, const pwr_event *ev, double cycles)
{
    switch (ev->src) {
    case PWR_SRC_ACT:
        return a->c[ev->idx];
    case PWR_SRC_LANES:
        return a->op_lanes[ev->idx];
    case PWR_SRC_WARPS:
        return a->op_warps[ev->idx];
    case PWR_SRC_IDLE_SM: {
        double idle = m->cfg.gpu.sm_count * cycles - a->c[ACT_ACTIVE_SM_CYCLES];
        return idle > 0 ? idle : 0;
    }
    }
    return 0;
}

static int check_counts(const act_counters *a, ge_err *e)
{
    for (int i = 0; i < ACT_COUNT; i++)
        if (!(a->c[i] >= 0) || !isfinite(a->c[i]))
            return ge_errf(e, "power: activity counter %s = %g is not a finite count", act_names[i], a->c[i]);
    for (int i = 0; i < ISA_OP_COUNT; i++)
        if (!(a->op_lanes[i] >= 0) || !isfinite(a->op_lanes[i]) || !(a->op_warps[i] >= 0) ||
            !isfinite(a->op_warps[i]))
            return ge_errf(e, "power: activity of op %s is not a finite count", isa_ops[i].name);
    return 0;
}

int pwr_eval(const pwr_model *m, const act_counters *a, double cycles, int dvfs, pwr_result *out,
             ge_err *e)
{
    double f, v;
    if (!(cycles > 0))
        cycles = a->c[ACT_CYCLES];
    if (!(cycles > 0) || !isfinite(cycles))
        return ge_errf(e, "power: elapsed cycles must be positive (got %g)", cycles);
    if (pwr_point(m, dvfs, &f, &v))
        return ge_errf(e, "power: DVFS point %d out of range (config has %u)", dvfs, m->cfg.power.ndvfs);
    if (check_counts(a, e))
        return -1;
    memset(out, 0, sizeof *out);
    out->cycles = cycles;
    out->freq_mhz = f;
    out->vdd_v = v;
    out->seconds = cycles / (f * 1e6);
    double vr = v / m->cfg.power.vdd_v, core = vr * vr;
    double ej[PWR_COMPONENT_COUNT] = {0};
    for (size_t i = 0; i < m->nev; i++) {
        const pwr_event *ev = &m->ev[i];
        ej[ev->comp] += src_count(m, a, ev, cycles) * ev->energy_j * (ev->core_rail ? core : 1.0);
    }
    for (int c = 0; c < PWR_COMPONENT_COUNT; c++)
        out->comp_w[c] = ej[c] / out->seconds;
    double lane_f = 1.0;
    if (m->cfg.power.lane_static) {
        double wi = a->c[ACT_WARP_INSTS];
        lane_f = wi > 0 ? a->c[ACT_THREAD_INSTS] / (wi * m->cfg.sm.warp_size) : 0.0;
        lane_f = lane_f < 0 ? 0 : lane_f > 1 ? 1 : lane_f;
    }
    out->comp_w[PWR_STATIC] += (m->leak_other_w + m->leak_lane_w * lane_f) * vr;
    out->comp_w[PWR_CONSTANT] += m->cfg.power.constant_w;
    for (int c = 0; c < PWR_COMPONENT_COUNT; c++) {
        out->comp_w[c] *= m->cfg.power.scale[c];
        out->total_w += out->comp_w[c];
        if (c != PWR_STATIC && c != PWR_CONSTANT && c != PWR_IDLE_SM)
            out->dynamic_w += out->comp_w[c];
    }
    out->energy_j = out->total_w * out->seconds;
    out->edp = out->energy_j * out->seconds;
    out->ed2p = out->edp * out->seconds;
    return 0;
}

int pwr_kernel(const pwr_model *m, const kresult *kr, pwr_result *out, ge_err *e)
{
    return pwr_eval(m, &kr->act, kr->cycles, PWR_NOMINAL, out, e);
}

void pwr_accumulate(pwr_result *sum, const pwr_result *k)
{
    double t = sum->seconds + k->seconds;
    if (!(t > 0))
        return;
    for (int c = 0; c < PWR_COMPONENT_COUNT; c++)
        sum->comp_w[c] = (sum->comp_w[c] * sum->seconds + k->comp_w[c] * k->seconds) / t;
    sum->dynamic_w = (sum->dynamic_w * sum->seconds + k->dynamic_w * k->seconds) / t;
    sum->energy_j += k->energy_j;
    sum->cycles += k->cycles;
    sum->seconds = t;
    sum->total_w = sum->energy_j / t;
    sum->freq_mhz = sum->cycles / (t * 1e6); /* effective clock if points differed */
    sum->vdd_v = k->vdd_v;
    sum->edp = sum->energy_j * t;
    sum->ed2p = sum->edp * t;
}

/* ---- inspection ---- */

const pwr_event *pwr_events(const pwr_model *m, size_t *n)
{
    *n = m->nev;
    return m->ev;
}

const pwr_leak *pwr_leaks(const pwr_model *m, size_t *n)
{
    *n = m->nlk;
    return m->lk;
}

const gpu_config *pwr_config(const pwr_model *m)
{
    return &m->cfg;
}

size_t pwr_array_count(const pwr_model *m)
{
    return m->narr;
}

int pwr_array_get(const pwr_model *m, size_t i, pwr_array_info *out)
{
    if (i >= m->narr)
        return -1;
    const pwr_array *a = &m->arr[i];
    out->name = a->name;
    out->how = a->how;
    out->read_j = a->read_j;
    out->write_j = a->write_j;
    out->search_j = a->search_j;
    out->leak_w = a->leak_w;
    out->area_mm2 = a->area_mm2;
    out->count = a->present ? a->count : 0;
    return 0;
}

double pwr_static_w(const pwr_model *m)
{
    return (m->leak_other_w + m->leak_lane_w) * m->cfg.power.scale[PWR_STATIC];
}

double pwr_idle_sm_w(const pwr_model *m)
{
    return m->sm_clock_j * m->cfg.gpu.core_clock_mhz * 1e6 * m->cfg.power.scale[PWR_IDLE_SM];
}
