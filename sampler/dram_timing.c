/*
 * dram_timing.c - the DRAM command timing constraints, as data.
 *
 * Two tables:
 *  1. dram_types: what differs between the supported technologies and is not
 *     a key of the config: whether row commands (ACT/PRE) and column commands
 *     (RD/WR) travel on separate command buses, so that one of each can
 *     issue per tick (HBM has separate row and column command interfaces,
 *     JEDEC JESD235; GDDR5/GDDR6 share one command/address bus, JESD212 and
 *     JESD250), and the data-bus turnaround between a read burst and a write
 *     burst.  For the turnaround we use GPGPU-Sim's read-to-write gap
 *     tCL + tBL + 2 - tWL (its dram.cc), i.e. 2 cycles, for every type: the
 *     JEDEC value depends on the device's ODT settings, which the config does
 *     not describe.
 *  2. rules: "after command FROM, command TO at SCOPE waits SUM(terms)".
 *     The terms name timing parameters, which come from the config
 *     (dram.tCL, ...), plus two derived ones: tBL, the data-bus cycles of one
 *     burst = ceil(dram.burst_length / dram.data_rate), and TA, the type's
 *     bus turnaround.  The rows are the standard DDR-family constraints as
 *     used by DRAMSim2/3 and Ramulator; all four types share them.
 *     Negative sums are clamped to 0.
 *
 * dram_timing_build() evaluates the rows for one config and sorts them by
 * FROM, so issuing a command walks only its own rows.
 */
#include <stdlib.h>
#include <string.h>

#include "dram.h"

enum { P_tBL, P_TA, P_tCL, P_tWL, P_tRCD, P_tRP, P_tRAS, P_tRC, P_tCCD, P_tCCDL, P_tRRD, P_tWTR, P_tWR, P_tRTP, P_tRFC, P_N };

#define GPGPUSIM_BUS_TURNAROUND 2 /* cycles; GPGPU-Sim's read-to-write gap tCL + tBL + 2 - tWL */

typedef struct dram_type_desc {
    const char *name;
    int dual_cmd_bus;     /* 1: one row and one column command per tick */
    uint32_t turnaround;  /* TA, data-bus cycles between a read and a write burst */
} dram_type_desc;

static const dram_type_desc dram_types[] = {
    {"GDDR5", 0, GPGPUSIM_BUS_TURNAROUND},  {"GDDR5X", 0, GPGPUSIM_BUS_TURNAROUND},
    {"GDDR6", 0, GPGPUSIM_BUS_TURNAROUND},  {"GDDR6X", 0, GPGPUSIM_BUS_TURNAROUND},
    {"HBM", 1, GPGPUSIM_BUS_TURNAROUND},    {"HBM2", 1, GPGPUSIM_BUS_TURNAROUND},
    {"HBM2E", 1, GPGPUSIM_BUS_TURNAROUND},  {"HBM3", 1, GPGPUSIM_BUS_TURNAROUND},
};

#define MAX_TERMS 4
typedef struct rule_src {
    uint8_t from, to, scope;
    int8_t sign[MAX_TERMS];
    uint8_t term[MAX_TERMS];
    uint8_t nterms;
} rule_src;

#define B DRAM_SCOPE_BANK
#define G DRAM_SCOPE_GROUP
#define C DRAM_SCOPE_CHANNEL
#define R1(f, t, s, a) {DRAM_##f, DRAM_##t, s, {1}, {P_##a}, 1}
#define R3(f, t, s, a, b, c) {DRAM_##f, DRAM_##t, s, {1, 1, 1}, {P_##a, P_##b, P_##c}, 3}
/* a + b + c - d */
#define R4M(f, t, s, a, b, c, d) {DRAM_##f, DRAM_##t, s, {1, 1, 1, -1}, {P_##a, P_##b, P_##c, P_##d}, 4}

static const rule_src rules[] = {
    /* one bank: row cycle */
    R1(ACT, ACT, B, tRC),            /* activate to activate, same bank */
    R1(ACT, RD, B, tRCD),            /* activate to column command */
    R1(ACT, WR, B, tRCD),
    R1(ACT, PRE, B, tRAS),           /* row must stay open tRAS */
    R1(PRE, ACT, B, tRP),            /* precharge period */
    R1(RD, PRE, B, tRTP),            /* read to precharge */
    R3(WR, PRE, B, tWL, tBL, tWR),   /* write data, then write recovery */
    /* bank group: column-to-column, long */
    R1(RD, RD, G, tCCDL),
    R1(WR, WR, G, tCCDL),
    R1(RD, WR, G, tCCDL),
    R1(WR, RD, G, tCCDL),
    /* channel: activates, column-to-column short, data bus */
    R1(ACT, ACT, C, tRRD),
    R1(RD, RD, C, tCCD),
    R1(WR, WR, C, tCCD),
    R1(RD, RD, C, tBL),              /* one burst occupies the data bus */
    R1(WR, WR, C, tBL),
    R4M(RD, WR, C, tCL, tBL, TA, tWL),   /* read data out, turn the bus around */
    R3(WR, RD, C, tWL, tBL, tWTR),       /* write data in, then write-to-read */
    /* refresh (all banks): needs every bank precharged for tRP, blocks tRFC */
    R1(PRE, REF, C, tRP),
    R1(REF, ACT, C, tRFC),
    R1(REF, REF, C, tRFC),
};

int dram_timing_build(dram_timing *t, const gpu_config *cfg, ge_err *e)
{
    memset(t, 0, sizeof *t);
    const dram_type_desc *ty = NULL;
    for (size_t i = 0; i < sizeof dram_types / sizeof *dram_types; i++)
        if (strcmp(dram_types[i].name, cfg->dram.type) == 0)
            ty = &dram_types[i];
    if (!ty)
        return ge_errf(e, "dram.type: '%s' has no timing table", cfg->dram.type);
    if (!cfg->dram.data_rate || !cfg->dram.burst_length)
        return ge_errf(e, "dram.burst_length: burst length and data rate must be > 0");
    uint32_t p[P_N];
    p[P_tBL] = (cfg->dram.burst_length + cfg->dram.data_rate - 1) / cfg->dram.data_rate;
    p[P_TA] = ty->turnaround;
    p[P_tCL] = cfg->dram.tCL;
    p[P_tWL] = cfg->dram.tWL;
    p[P_tRCD] = cfg->dram.tRCD;
    p[P_tRP] = cfg->dram.tRP;
    p[P_tRAS] = cfg->dram.tRAS;
    p[P_tRC] = cfg->dram.tRC;
    p[P_tCCD] = cfg->dram.tCCD;
    p[P_tCCDL] = cfg->dram.tCCDL;
    p[P_tRRD] = cfg->dram.tRRD;
    p[P_tWTR] = cfg->dram.tWTR;
    p[P_tWR] = cfg->dram.tWR;
    p[P_tRTP] = cfg->dram.tRTP;
    p[P_tRFC] = cfg->dram.tRFC;
    t->type = ty->name;
    t->dual_cmd_bus = ty->dual_cmd_bus;
    t->tBL = p[P_tBL];
    t->tCL = cfg->dram.tCL;
    t->tWL = cfg->dram.tWL;
    t->tRCD = cfg->dram.tRCD;
    t->tFAW = cfg->dram.tFAW;
    t->tRFC = cfg->dram.tRFC;
    t->tREFI = cfg->dram.tREFI;
    t->burst_bytes = cfg->dram.bus_bits / 8 * cfg->dram.burst_length;
    t->latency = cfg->dram.latency_cycles;
    if (!t->burst_bytes)
        return ge_errf(e, "dram.bus_bits: a burst must move at least one byte");
    /* Evaluate, grouped by FROM command. */
    for (int from = 0; from < DRAM_NCMD; from++) {
        t->first[from] = (uint8_t)t->nrules;
        for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
            const rule_src *r = &rules[i];
            if (r->from != from)
                continue;
            if (r->from == DRAM_REF || r->to == DRAM_REF)
                if (!cfg->dram.tREFI)
                    continue; /* no refresh modelled */
            int64_t v = 0;
            for (int k = 0; k < r->nterms; k++)
                v += r->sign[k] * (int64_t)p[r->term[k]];
            uint32_t cycles = (uint32_t)(v > 0 ? v : 0);
            /* Rules on the same follower and scope (RD -> RD at tCCD and at
             * tBL) raise the same earliest time: keep the larger as one rule,
             * so issuing a command walks fewer rules. */
            int same = -1;
            for (int k = t->first[from]; k < t->nrules; k++)
                if (t->rule[k].to == r->to && t->rule[k].scope == r->scope)
                    same = k;
            if (same >= 0) {
                if (cycles > t->rule[same].cycles)
                    t->rule[same].cycles = cycles;
                continue;
            }
            if (t->nrules == DRAM_MAX_RULES)
                return ge_errf(e, "dram timing: more than %d rules", DRAM_MAX_RULES);
            t->rule[t->nrules++] = (dram_rule){r->from, r->to, r->scope, cycles};
        }
        t->count[from] = (uint8_t)(t->nrules - t->first[from]);
    }
    return 0;
}
