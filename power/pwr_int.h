/*
 * pwr_int.h - shared internals of power/: the published constants the model
 * is built from, technology/voltage scaling, and the cacti-backed arrays.
 *
 * Every number here is either a published figure (source in the comment,
 * units in the name) or a labelled estimate (the comment says "estimate"
 * and gives the reasoning).  docs/power.md repeats them in one table.
 * Nothing here is fitted to a power measurement: that is the job of the
 * per-component calibration factors power.scale.<component>.
 */
#ifndef PWR_INT_H
#define PWR_INT_H

#include <stdint.h>

#include "power.h"

/* ---- Horowitz, "Computing's energy problem (and what we can do about
 * it)", ISSCC 2014, keynote table of energy and area per operation, 45 nm,
 * 0.9 V. ---- */
#define PWR_H45_NODE_NM 45.0
#define PWR_H45_VDD_V 0.9
#define PWR_H45_INT_ADD32_PJ 0.1
#define PWR_H45_INT_MUL32_PJ 3.1
#define PWR_H45_FP16_MUL_PJ 1.1
#define PWR_H45_FP32_ADD_PJ 0.9
#define PWR_H45_FP32_MUL_PJ 3.7
/* Energy of one instruction of a simple in-order RISC core, and the parts
 * of it that are the I-cache access and the register-file access; the
 * remainder is control (fetch/decode/issue logic and pipeline control). */
#define PWR_H45_INSTR_PJ 70.0
#define PWR_H45_INSTR_ICACHE_PJ 25.0
#define PWR_H45_INSTR_RF_PJ 6.0
#define PWR_H45_CONTROL_PJ (PWR_H45_INSTR_PJ - PWR_H45_INSTR_ICACHE_PJ - PWR_H45_INSTR_RF_PJ)
/* Areas of the same units, um^2 at 45 nm. */
#define PWR_H45_INT_ADD32_UM2 137.0
#define PWR_H45_INT_MUL32_UM2 3495.0
#define PWR_H45_FP16_MUL_UM2 1640.0
#define PWR_H45_FP32_ADD_UM2 4184.0
#define PWR_H45_FP32_MUL_UM2 7700.0

/* ---- Keckler, Dally, Khailany, Garland, Glasco, "GPUs and the future of
 * parallel computing", IEEE Micro 31(5), 2011, table 1, 40 nm, 0.9 V. ---- */
#define PWR_K40_NODE_NM 40.0
#define PWR_K40_VDD_V 0.9
#define PWR_K40_DFMA_PJ 50.0 /* 64-bit double-precision fused multiply-add */
/* Wire energy: 310 pJ to move 256 bits 10 mm on chip (random data, i.e.
 * the table's 240 fJ/bit/mm per transition at about half the bits
 * toggling).  Wire capacitance per mm barely changes with the node (the
 * same table projects 200 pJ at 10 nm and 0.75 V, i.e. V^2 only), so the
 * model scales it with V^2 and not with the node. */
#define PWR_K40_WIRE_PJ_PER_BIT_MM (310.0 / (256.0 * 10.0))

/* ---- Logic estimates (no single published figure; reasoning given) ---- */
/* Clock energy of one pipeline-register bit per cycle at 45 nm, 0.9 V:
 * estimate.  A minimum D flip-flop's clock pin is about 1 fF in a 45 nm
 * library (e.g. NanGate FreePDK45 DFF_X1), i.e. 0.8 fJ per cycle at 0.9 V,
 * doubled for its internal clock nodes and the local clock wiring. */
#define PWR_FF_CLOCK_FJ_45 2.0
/* Data bits a lane's pipeline register holds per stage: three 32-bit
 * source operands (estimate: FMA operand width; results replace operands
 * in later stages). */
#define PWR_LANE_LATCH_BITS 96.0
/* Fraction of latched data bits that toggle per operation (random data). */
#define PWR_DATA_ACTIVITY 0.5
/* SFU ops: NVIDIA's SFU evaluates transcendental functions by quadratic
 * interpolation from a table (Oberman and Siu, "A high-performance
 * area-efficient multifunction interpolator", ARITH 2005): a table read, a
 * squarer and two multiply-adds.  Estimate: 2 FP32 multiplies + 1 FP32 add
 * per lane, plus the extra instructions each function needs (documented at
 * each use in pwr_model.c). */
#define PWR_SFU_BASE_PJ_45 (2.0 * PWR_H45_FP32_MUL_PJ + PWR_H45_FP32_ADD_PJ)
/* Integer division: NVIDIA GPUs have no integer divider; div.s32/u32
 * becomes a reciprocal-multiply sequence of about a dozen instructions,
 * mostly IMADs (estimate: 8 32-bit multiplies). */
#define PWR_INT_DIV_MULS 8.0
/* FP64 divide: reciprocal seed + Newton-Raphson refinement, estimate 8
 * DFMAs. */
#define PWR_FP64_DIV_DFMAS 8.0
/* Area of one FP64 FMA lane relative to an FP32 multiplier: the mantissa
 * multiplier grows with (53/24)^2 (estimate, array-multiplier scaling). */
#define PWR_FP64_MUL_AREA_RATIO ((53.0 / 24.0) * (53.0 / 24.0))

/* Operand wires: from RF banks through the operand collector to the lanes
 * of one SM sub-partition, about a quarter of an SM tile's side, where a
 * tile is die_area / sm_count (estimate: four sub-partitions per SM,
 * operands travel half a sub-partition's width on average). */
#define PWR_OPERAND_WIRE_TILE_FRACTION 0.25
/* Mean Manhattan distance between two uniform random points of a square of
 * side a is 2a/3: the average SM <-> L2-slice path over the die. */
#define PWR_NOC_MEAN_PATH_SIDES (2.0 / 3.0)

/* Physical address bits assumed for tags (CACTI's default, cacti.h). */
#define PWR_ADDR_BITS 42
/* Caches with fewer sets than this keep their tags in a CAM searched in
 * full (a 4-set, 64-way tag store is too short for a RAM array). */
#define PWR_TAG_RAM_MIN_SETS 32

/* ---- DRAM ---- */
/* Row activation + precharge energy per bit of the opened row: estimate of
 * order 0.1 pJ/bit, from the IDD0-based method of Micron TN-40-07
 * ("Calculating memory power for DDR4 SDRAM") for an 8 Gb x8 device (about
 * 1 nJ per ACT/PRE pair for a 1 KB page).  Split half to ACT, half to PRE. */
#define PWR_DRAM_ROW_PJ_PER_BIT 0.1

typedef struct pwr_dram_tech {
    const char *type;     /* config dram.type */
    double pj_per_bit;    /* column read/write incl. device I/O */
    const char *source;
} pwr_dram_tech;

/* The entry for a dram.type (never NULL for a validated config). */
const pwr_dram_tech *pwr_dram_lookup(const char *type);

/* ---- Tensor cores ---- */
/* FP16 multiply-accumulate lanes per tensor core per cycle, by arch
 * (0 = no tensor cores): NVIDIA Tesla V100 whitepaper (2017): 64; Turing
 * whitepaper (2018): 64; A100 whitepaper (2020): 256; H100 whitepaper
 * (2022): 512 (twice A100 clock for clock). */
double pwr_tensor_macs_per_cycle(const char *arch);
/* Instruction width in bits: 64 up to Pascal, 128 from Volta on (Jia et
 * al., "Dissecting the NVIDIA Volta GPU architecture via
 * microbenchmarking", arXiv:1804.06826, 2018). */
double pwr_instr_bits(const char *arch);

/* ---- Technology scaling ---- */
/* CACTI's supported nodes and its ITRS HP supply voltage at each
 * (cacti/tech.c device table): 90:1.2 65:1.1 45:1.0 32:0.9 22:0.8 16:0.7. */
typedef struct pwr_tech {
    double node_nm;       /* config node */
    double vdd_v;         /* config nominal core voltage */
    double temp_k;        /* config temperature, clamped to CACTI's 300..400 K */
    uint32_t cacti_nm;    /* nearest CACTI node (16 for anything below) */
    double cacti_vdd_v;   /* CACTI HP Vdd at cacti_nm */
    /* Multipliers from a CACTI result to the config's node and voltage. */
    double arr_energy;    /* (node/cacti_nm) * (vdd/cacti_vdd)^2 */
    double arr_leak;      /* (node/cacti_nm)^2 * (vdd/cacti_vdd): same W/mm^2 */
    double arr_area;      /* (node/cacti_nm)^2 */
} pwr_tech;

void pwr_tech_init(pwr_tech *t, const gpu_config *cfg);
/* Energy (J) of a logic figure published at (node_nm, vdd_v) in pJ, scaled
 * to the config: switched capacitance ~ feature size (classical scaling),
 * energy ~ C V^2. */
double pwr_logic_j(const pwr_tech *t, double pj, double node_nm, double vdd_v);
/* Wire energy (J) to move `bits` over `mm` at the config's voltage. */
double pwr_wire_j(const pwr_tech *t, double bits, double mm);

/* ---- Arrays (cacti) ---- */
typedef struct pwr_array {
    char name[40];
    pwr_component comp;
    int present;
    double read_j, write_j, search_j; /* per access of one bank, config node/vdd */
    double leak_w;                    /* one instance, all its banks */
    double area_mm2;                  /* one instance, all banks, config node */
    double count;                     /* instances on the chip */
    char how[96];                     /* what cacti was asked */
} pwr_array;

/* Plain RAM: `bytes` in `banks` banks, rows of row_bytes, ports of
 * port_bits.  Sizes are rounded up to what CACTI accepts (noted in how). */
int pwr_array_ram(pwr_array *a, const pwr_tech *t, const char *name, pwr_component comp,
                  uint64_t bytes, uint32_t row_bytes, uint32_t port_bits, uint32_t banks, double count,
                  ge_err *e);
/* Fully associative CAM of `entries` entries of entry_bits (search + write). */
int pwr_array_cam(pwr_array *a, const pwr_tech *t, const char *name, pwr_component comp,
                  uint32_t entries, uint32_t entry_bits, double count, ge_err *e);

/* A cache from its config: data array (one sector per access), tag array
 * (one set per access; a CAM when sets < PWR_TAG_RAM_MIN_SETS) and MSHR
 * CAM.  Absent (size 0) caches come back with present = 0. */
typedef struct pwr_cache {
    pwr_array data, tag, mshr;
} pwr_cache;
int pwr_cache_build(pwr_cache *c, const pwr_tech *t, const char *name, pwr_component comp,
                    const gcfg_cache *cc, double count, ge_err *e);
/* Tag lookup energy (RAM read of a set, or CAM search). */
double pwr_cache_tag_j(const pwr_cache *c);

/* Leakage density of HP logic, W/mm^2 at the config's node, voltage and
 * temperature, taken from a CACTI solve of an HP array (see pwr_arrays.c). */
int pwr_logic_leak_density(const pwr_tech *t, double *w_per_mm2, ge_err *e);

#endif
