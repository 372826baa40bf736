/*
 * pwr_tech.c - technology and voltage scaling, and the per-technology
 * tables (DRAM pJ/bit, tensor-core width, instruction width).
 *
 * Scaling model (docs/power.md, "Scaling"):
 *   - Arrays are solved by CACTI at the nearest node it supports (90, 65,
 *     45, 32, 22, 16 nm; anything below 16 nm is solved at 16 nm) at
 *     CACTI's ITRS-HP supply voltage for that node, then scaled to the
 *     config:  energy x (node/node_cacti) x (V/V_cacti)^2,
 *              area x (node/node_cacti)^2,
 *              leakage x (node/node_cacti)^2 x (V/V_cacti),
 *     i.e. leakage per mm^2 is that of the CACTI node (at the config's
 *     temperature and voltage) for arrays and logic alike.
 *   - Logic figures published at (node0, V0) scale the same way:
 *     E = E0 x (node/node0) x (V/V0)^2.
 *   Switched capacitance proportional to the feature size is classical
 *   (Dennard) scaling.  Stillmaker and Baas ("Scaling equations for the
 *   accurate prediction of CMOS device performance from 180 nm to 7 nm",
 *   Integration 58, 2017) show that deep-submicron energy scales less well
 *   than classical rules predict once voltage stops scaling; here voltage
 *   is not scaled with the node at all (the config gives it), which removes
 *   most of that error.  As a cross-check, C ~ node gives 0.75x from 16 to
 *   12 nm and 0.25x from 16 to "4 nm", against TSMC's published iso-speed
 *   power reductions of about 25% (16FF+ -> 12FFC) and 0.4 x 0.7 = 0.28x
 *   (16FF+ -> N7 -> N5) - which also include some voltage reduction, so
 *   the model is if anything optimistic below 16 nm.  Keeping the leakage
 *   density of the CACTI node (rather than letting it grow as 1/node, as
 *   constant Ioff per um of width would) is an assumption: FinFET
 *   generations below 16 nm held leakage per fin roughly flat while
 *   shrinking fins per function; documented in docs/power.md.
 *   - Wires: energy per bit per mm ~ V^2 only (Keckler et al. 2011).
 *   - Leakage ~ V, dynamic ~ V^2 f: the GPUWattch/AccelWattch convention
 *     for DVFS (Leng et al., ISCA 2013; Kandiah et al., MICRO 2021).
 */
#include <math.h>
#include <string.h>

#include "pwr_int.h"

static const struct {
    uint32_t nm;
    double vdd;
} cacti_nodes[] = {{90, 1.2}, {65, 1.1}, {45, 1.0}, {32, 0.9}, {22, 0.8}, {16, 0.7}};

#define NCACTI (sizeof cacti_nodes / sizeof *cacti_nodes)
#define CACTI_T_MIN_K 300.0
#define CACTI_T_MAX_K 400.0

void pwr_tech_init(pwr_tech *t, const gpu_config *cfg)
{
    memset(t, 0, sizeof *t);
    t->node_nm = cfg->power.technology_nm;
    t->vdd_v = cfg->power.vdd_v;
    t->temp_k = cfg->power.temperature_k;
    if (t->temp_k < CACTI_T_MIN_K)
        t->temp_k = CACTI_T_MIN_K;
    if (t->temp_k > CACTI_T_MAX_K)
        t->temp_k = CACTI_T_MAX_K;
    /* Nearest CACTI node on a log scale; below the smallest, the smallest. */
    size_t best = 0;
    double bestd = INFINITY;
    for (size_t i = 0; i < NCACTI; i++) {
        double d = fabs(log(t->node_nm / cacti_nodes[i].nm));
        if (d < bestd) {
            bestd = d;
            best = i;
        }
    }
    t->cacti_nm = cacti_nodes[best].nm;
    t->cacti_vdd_v = cacti_nodes[best].vdd;
    double s = t->node_nm / t->cacti_nm, v = t->vdd_v / t->cacti_vdd_v;
    t->arr_energy = s * v * v;
    t->arr_leak = s * s * v; /* leakage per mm^2 of the CACTI node, see above */
    t->arr_area = s * s;
}

double pwr_logic_j(const pwr_tech *t, double pj, double node_nm, double vdd_v)
{
    double v = t->vdd_v / vdd_v;
    return pj * 1e-12 * (t->node_nm / node_nm) * v * v;
}

double pwr_wire_j(const pwr_tech *t, double bits, double mm)
{
    double v = t->vdd_v / PWR_K40_VDD_V;
    return PWR_K40_WIRE_PJ_PER_BIT_MM * 1e-12 * bits * mm * v * v;
}

/* DRAM energy per bit read or written, device side including its I/O.
 * The figures come from different studies and do not share one accounting
 * (e.g. Micron's HBM2E figure is higher than O'Connor's HBM2 one);
 * docs/power.md discusses it.  Types without their own published figure
 * reuse their predecessor's and say so. */
static const pwr_dram_tech dram_techs[] = {
    {"GDDR5", 1e12 / (10.66e9 * 8.0),
     "AMD HBM briefing 2015: GDDR5 10.66 GB/s per W -> 11.7 pJ/bit"},
    {"GDDR5X", 1e12 / (10.66e9 * 8.0), "no own figure: GDDR5's (AMD 2015)"},
    {"GDDR6", 7.5, "Micron ultra-bandwidth solutions table: GDDR6 7.5 pJ/bit"},
    {"GDDR6X", 7.25, "Micron ultra-bandwidth solutions table: GDDR6X 7.25 pJ/bit"},
    {"HBM", 1e12 / (35e9 * 8.0), "AMD HBM briefing 2015: HBM 35 GB/s per W -> 3.6 pJ/bit"},
    {"HBM2", 3.9, "O'Connor et al., MICRO 2017 (FGDRAM): HBM2 about 3.9 pJ/bit"},
    {"HBM2E", 6.0, "Micron ultra-bandwidth solutions table: HBM2E 6.0 pJ/bit"},
    {"HBM3", 6.0, "no own figure found: HBM2E's (Micron), likely pessimistic"},
};

const pwr_dram_tech *pwr_dram_lookup(const char *type)
{
    for (size_t i = 0; i < sizeof dram_techs / sizeof *dram_techs; i++)
        if (!strcmp(dram_techs[i].type, type))
            return &dram_techs[i];
    return NULL;
}

double pwr_tensor_macs_per_cycle(const char *arch)
{
    if (!strcmp(arch, "volta") || !strcmp(arch, "turing"))
        return 64.0;
    if (!strcmp(arch, "ampere") || !strcmp(arch, "ada"))
        return 256.0;
    if (!strcmp(arch, "hopper"))
        return 512.0;
    if (!strcmp(arch, "custom"))
        return 64.0; /* a custom design with tensor units: Volta's width */
    return 0.0;
}

double pwr_instr_bits(const char *arch)
{
    static const char *const old[] = {"fermi", "kepler", "maxwell", "pascal"};
    for (size_t i = 0; i < sizeof old / sizeof *old; i++)
        if (!strcmp(arch, old[i]))
            return 64.0;
    return 128.0;
}
