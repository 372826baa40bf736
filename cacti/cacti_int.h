/*
 * cacti_int.h - internal types shared by the files of cacti/.
 *
 * Units inside the library: lengths and widths in micrometres, capacitance in
 * farads, resistance in ohms, time in seconds, energy in joules, power in
 * watts.  The public result converts to ns, nJ, mW and mm^2.
 *
 * Object map (one concept per file):
 *   tech.c        ITRS device / wire / cell tables and derived constants
 *   circuit.c     transistor-level primitives: gate and drain capacitance,
 *                 on-resistance, Horowitz delay, leakage with stacking,
 *                 layout area with folding, logical-effort sizing
 *   wire.c        wire R/C per length and the repeated global wire
 *   decoder.c     driver chains, row/column decoders, predecoders
 *   mat.c         subarray + mat: wordline, bitlines, sense amps, muxes,
 *                 output drivers, mat area and leakage
 *   comparator.c  tag comparators
 *   htree.c       H-tree address/data distribution inside a bank and
 *                 between banks
 *   cam.c         fully associative (CAM) search array
 *   array.c       one array organisation: bank + UCA assembly
 *   partition.c   search over organisations and the objective
 *   memo.c        thread-safe memo table, cacti_solve(), errors
 *   cfg.c         CACTI cache.cfg reader
 *
 * The model follows the CACTI 5.1 (HPL-2008-20), CACTI 6.0 (HPL-2009-85)
 * and CACTI 7 (Balasubramonian et al., TACO 2017) reports, with ITRS device
 * and wire tables (and McPAT, Li et al., MICRO 2009, at 16 nm); see
 * docs/cacti.md.
 */
#ifndef GPUEST_CACTI_INT_H
#define GPUEST_CACTI_INT_H

#include "cacti.h"

#if defined(__GNUC__)
#define CACTI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CACTI_PRINTF(a, b)
#endif

#define CACTI_MAX_STAGES 24

/* ---- technology ---- */

/* One transistor flavour at one node and temperature. */
typedef struct cacti_dev {
    double C_g_ideal, C_fringe, C_overlap; /* F/um of width */
    double C_junc, C_junc_sw;              /* F/um^2, F/um */
    double l_phy, l_elec;                  /* um */
    double Vdd, Vth, Vdsat;                /* V */
    double I_on_n, I_on_p;                 /* A/um */
    double R_nch_on, R_pch_on;             /* ohm*um */
    double I_off_n, I_off_p;               /* A/um, subthreshold at temperature */
    double I_g_on_n, I_g_on_p;             /* A/um, gate leakage */
    double C_ox;                           /* F/um^2 */
    double n2p;                            /* PMOS/NMOS width ratio for equal drive */
    double mobility_n;                     /* um^2/(V s) */
    double gmp_to_gmn;
} cacti_dev;

/* One interconnect layer (conservative ITRS projection). */
typedef struct cacti_layer {
    double pitch;        /* um */
    double R_per_um;     /* ohm/um */
    double C_per_um;     /* F/um */
    double aspect_ratio; /* thickness / width */
    double ild;          /* inter-layer dielectric thickness, um */
    double miller, horiz_k, vert_k;
} cacti_layer;

/* A repeated wire design point, per micrometre of length. */
typedef struct cacti_rep {
    double delay;   /* s/um */
    double dyn;     /* J/um per transition */
    double leak;    /* W/um */
    double gleak;   /* W/um */
    double spacing; /* um between repeaters */
    double size;    /* repeater size in minimum inverters */
} cacti_rep;

typedef struct cacti_tech {
    unsigned node_nm;
    double F;                 /* feature size, um */
    double temperature_k;
    cacti_dev peri;           /* peripheral / global circuits */
    cacti_dev cell;           /* memory-cell transistors */
    cacti_layer local;        /* wordlines, bitlines */
    cacti_layer inside;       /* wires inside a mat (semi-global) */
    cacti_layer outside;      /* wires between mats (semi-global) */
    cacti_layer global;       /* global layer (8 F pitch; not used by the array model) */
    /* SRAM / CAM cells */
    double cell_a_w, cell_p_w, cell_n_w; /* access, pull-up, pull-down widths, um */
    double sram_b_w, sram_b_h;           /* single-port SRAM cell, um */
    double cam_b_w, cam_b_h;             /* single-port CAM cell, um */
    double vbitpre;                      /* bitline precharge voltage */
    /* peripheral sizing rules (in um) */
    double min_w_nmos, max_w_nmos;
    double w_iso, w_sense_n, w_sense_p, w_sense_en, w_b_mux, w_sa_mux;
    double w_pch, w_eq;
    double w_comp_inv_p1, w_comp_inv_n1, w_comp_inv_p2, w_comp_inv_n2;
    double w_comp_inv_p3, w_comp_inv_n3, w_eval_inv_p, w_eval_inv_n, w_comp_n, w_comp_p;
    /* layout rules (in um) */
    double gap_pn, gap_same, hrail, cell_h_def, w_poly_contact, sp_poly_contact, sp_poly_poly;
    double wl_stitch;         /* wordline stitching overhead per 16 cells */
    double h_dec_cells;       /* row-decoder cell height in memory cells */
    double gm_sa;             /* sense-amplifier latch transconductance, A/V */
    double fringe_cap;        /* F/um */
    /* repeated wires between mats and banks */
    cacti_rep rep_opt;        /* delay-optimal */
    cacti_rep rep_h;          /* energy-optimal within the allowed delay penalty (Global_30) */
    double rep_out_rise;      /* output ramp of a repeated wire, s */
} cacti_tech;

/* Build the technology for node/cell flavour/peripheral flavour/temperature.
 * Returns CACTI_OK or CACTI_EINVAL (message set). */
cacti_status cacti_tech_build(unsigned node_nm, cacti_device cell, cacti_device peri, double temp_k,
                              cacti_tech *t);

/* ---- circuit primitives (circuit.c) ---- */

enum { CACTI_NCH = 1, CACTI_PCH = 0 };
enum { CACTI_G_INV, CACTI_G_NAND, CACTI_G_NOR, CACTI_G_NMOS, CACTI_G_TRI };

double cacti_gate_c(const cacti_dev *d, double w);
/* Drain capacitance of a (folded) transistor.  If by_height, fold_dim is the
 * height of the cell the transistor sits in; otherwise it is the folding
 * width threshold. */
double cacti_drain_c(const cacti_tech *t, const cacti_dev *d, double w, int nch, int stack,
                     int by_height, double fold_dim);
double cacti_ron(const cacti_dev *d, double w, int nch, int stack);
double cacti_horowitz(double tin, double tf, double vs1, double vs2, int rise);
/* Subthreshold / gate leakage current of a gate averaged over input states. */
double cacti_isub(const cacti_dev *d, double wn, double wp, int fanin, int gate);
double cacti_ig(const cacti_dev *d, double wn, double wp, int fanin, int gate);
double cacti_gate_area(const cacti_tech *t, int gate, int nin, double wp, double wn, double h);
double cacti_fold_width(const cacti_tech *t, double w, double threshold);
double cacti_sa_height(const cacti_tech *t, double pitch);

/* A chain of gates: stage 0 is the input gate, the rest are inverters. */
typedef struct cacti_chain {
    int n;
    double wn[CACTI_MAX_STAGES], wp[CACTI_MAX_STAGES];
} cacti_chain;

/* Size ch (stage 0 already set) to drive c_load with logical effort g of the
 * first gate and total path effort F; at least nmin stages, even count. */
void cacti_size_chain(const cacti_tech *t, cacti_chain *ch, int nmin, double g, double F,
                      double c_load, double max_wn);

/* ---- wires (wire.c) ---- */

void cacti_layer_rc(double F, double pitch_f, double aspect, double barrier, double dishing,
                    double alpha, double ild, double miller, double horiz, double vert,
                    double resistivity, double fringe, cacti_layer *l);
/* Fill t->rep_opt, t->rep_h and t->rep_out_rise (needs peri device and layers). */
void cacti_rep_init(cacti_tech *t, double delay_penalty);

/* ---- decoders (decoder.c) ---- */

/* Result of a timed component. */
typedef struct cacti_pw {
    double dyn;    /* J per activation */
    double leak;   /* W subthreshold */
    double gleak;  /* W gate */
} cacti_pw;

typedef struct cacti_driver {
    cacti_chain ch;
    double c_gate, c_wire, r_wire;
    double delay, out_rise, area;
    cacti_pw pw;
} cacti_driver;

void cacti_driver_make(const cacti_tech *t, cacti_driver *d, double c_gate, double c_wire,
                       double r_wire);
void cacti_driver_time(const cacti_tech *t, cacti_driver *d, double in_rise);

typedef struct cacti_dec {
    int exist;
    int nin;                 /* inputs of the decoding NAND: 2 or 3 */
    cacti_chain ch;
    double c_load, r_wire, h;
    double area;             /* one decoder row */
    double leak, gleak;      /* one decoder row */
    double delay, dyn, out_rise;
} cacti_dec;

void cacti_dec_make(const cacti_tech *t, cacti_dec *d, int nsig, int way_select, double c_load,
                    double r_wire, double cell_h);
void cacti_dec_time(const cacti_tech *t, cacti_dec *d, double in_rise, double v_out);

/* Two predecode blocks and their address drivers feeding one decoder. */
typedef struct cacti_predec {
    int exist;
    double delay, out_rise;  /* worst path to the decoder input */
    double dyn;              /* one access */
    double area, leak, gleak;
    int blk_bits[2];
} cacti_predec;

void cacti_predec_make(const cacti_tech *t, cacti_predec *p, int nsig, const cacti_dec *dec,
                       double c_wire, double r_wire, int dec_per_predec, double in_rise);
/* Way-select driver (the way-select signals of a set-associative data array). */
void cacti_waysel_make(const cacti_tech *t, cacti_predec *p, int ways, const cacti_dec *dec,
                       double in_rise);

/* ---- organisation parameters (array.c / mat.c) ---- */

typedef struct cacti_dp {
    int is_tag, is_cache, fa;       /* fa: fully associative / CAM */
    double nspd;
    int ndwl, ndbl, ndcm, ndsam1, ndsam2;
    int rows, cols;                 /* per subarray, cols before ECC */
    int tagbits;
    int num_mats_h, num_mats_v, num_mats;
    int num_do_b_mat, num_di_b_mat;
    int num_act_mats;
    int deg_samux1_nonassoc;
    int way_select;                 /* way-select signals per mat (data array of a cache) */
    int addr_bits_mat, subbank_decode_bits;
    int di_bank_port, do_bank_port; /* bits per port at the bank interface */
    double cell_w, cell_h;          /* multi-port cell, um */
    double v_b_sense;
    int rwp, erp, ewp, serp, schp;
    int ecc;
    int assoc;                      /* ways of the cache (1 for a RAM) */
} cacti_dp;

/* Everything computed for one mat. */
typedef struct cacti_mat {
    int cols_ecc;                    /* cols incl. ECC */
    double sub_w, sub_h;             /* subarray */
    double w, h;                     /* mat */
    double C_wl, R_wl, C_bl;
    cacti_dec row_dec, bmux_dec, sa1_dec, sa2_dec;
    cacti_predec row_pre, bmux_pre, sa1_pre, sa2_pre, waysel;
    cacti_driver bl_pre_drv;
    double d_bitline, d_sa, d_outdrv, d_outdrv_htree, d_wl_reset, d_bl_restore, d_comparator;
    double out_rise;
    /* energies per mat access */
    double e_read, e_bitline_rd, e_bitline_wr, e_sa, e_rowdec, e_predec_row;
    double e_outdrv;                 /* subarray output drivers */
    double e_cmp;                    /* comparators (tag) */
    double leak, gleak;              /* whole mat */
    double cell_area;                /* all cells in the mat */
    double d_row_path;               /* row predecode + decode + bitline + sense amp */
    double d_col_path;               /* column-mux path to the sense amp */
    double d_samux1, d_samux2;       /* sense-amp mux select paths */
    double d_row_predec, d_max_predec;
} cacti_mat;

/* The part of a mat fixed by (rows, cols, cell): shared by all mux choices. */
typedef struct cacti_matrow {
    int rows, cols;                  /* cols incl. ECC */
    double cw, ch;
    double sub_w, sub_h, C_wl, R_wl, C_bl, R_bl;
    cacti_dec row_dec;
    cacti_predec row_pre;
    cacti_driver bl_pre_drv;
    double d_wl_reset, d_bl_restore;
    double wire_d, wire_e, wire_l, wire_gl, rep_n, rep_area;
    double leak_cell, gleak_cell;    /* per cell */
    double cell_area;                /* all cells of a mat */
} cacti_matrow;

typedef struct cacti_muxdec {
    int valid;
    int cols;                            /* columns it was built for */
    cacti_dec dec;
    cacti_predec pre, way;
} cacti_muxdec;

/* Memo of mat parts during one organisation search (see mat.c). */
#define CACTI_RC_SLOTS 64
typedef struct cacti_matcache {
    int row_valid;
    cacti_matrow row;
    int pre_rows[CACTI_RC_SLOTS];        /* row predecoders by row count (0 = empty) */
    cacti_predec pre[CACTI_RC_SLOTS];
    int dec_cols[CACTI_RC_SLOTS];        /* wordline drivers and precharge drivers by columns */
    double dec_cw[CACTI_RC_SLOTS];
    cacti_dec dec[CACTI_RC_SLOTS];
    cacti_driver blpre[CACTI_RC_SLOTS];
    int mux_cols;                        /* columns of the current mat */
    double mux_cw, mux_ch;
    /* multiplexer decoders, per column count (CACTI_MUX_WAYS-way set) and mux degree */
#define CACTI_MUX_WAYS 4
    cacti_muxdec bmux[CACTI_MUX_WAYS][10];
    cacti_muxdec sa1[CACTI_MUX_WAYS][20][10];
    cacti_muxdec sa2[CACTI_MUX_WAYS][20][10];
} cacti_matcache;

int cacti_mat_build(const cacti_tech *t, const cacti_dp *dp, cacti_matcache *mc, cacti_mat *m);
const cacti_matrow *cacti_matrow_get(const cacti_tech *t, const cacti_dp *dp, cacti_matcache *mc);
/* The column-mux and sense-amp-mux decoders of dp (call cacti_matrow_get first). */
int cacti_mux_get(const cacti_tech *t, const cacti_dp *dp, cacti_matcache *mc, const cacti_muxdec **bm,
                  const cacti_muxdec **s1, const cacti_muxdec **s2);

/* Bitline, sense amplifier and output-driver figures of one mux choice. */
typedef struct cacti_matcore {
    double d_bitline, d_sa, d_out;
    double e_col_rd, e_col_wr;   /* per column of a subarray */
    double e_sa_one;             /* per sense amplifier */
    double out_e;                /* output driver stages, per bit */
} cacti_matcore;
void cacti_mat_core(const cacti_tech *t, const cacti_dp *dp, const cacti_matrow *R, cacti_matcore *c);

/* ---- comparators (comparator.c) ---- */
typedef struct cacti_cmp {
    double delay, dyn, leak, gleak;
} cacti_cmp;
void cacti_comparator(const cacti_tech *t, int tagbits, int assoc, double in_rise, cacti_cmp *c);
double cacti_comparator_height(const cacti_tech *t, int tagbits, int ways_in_mat, double width);

/* ---- H-trees (htree.c) ---- */
typedef struct cacti_htree {
    double delay;
    double dyn_bit;    /* J per bit transported */
    double dyn;        /* J for all bits */
    double leak, gleak;
    double w, h;       /* area spanned, um */
} cacti_htree;

enum { CACTI_HT_IN = 0, CACTI_HT_OUT = 1 };
/* Tree over nh x nv leaves of size leaf_w x leaf_h; bits carried.  uca
 * selects the inter-bank form (no node gates, bank-level wiring). */
void cacti_htree_make(const cacti_tech *t, int dir, int uca, double leaf_w, double leaf_h,
                      int nh, int nv, int addr_bits, int din_bits, int dout_bits, int bits,
                      cacti_htree *ht);
/* Same tree without the node gates (a lower bound on delay and energy). */
void cacti_htree_wires(const cacti_tech *t, double leaf_w, double leaf_h, int nh, int nv,
                       cacti_htree *ht);
/* Scale a tree built for 1 bit to `bits` bits. */
void cacti_htree_scale(const cacti_htree *unit, int bits, cacti_htree *out);

/* ---- one array organisation (array.c) ---- */
typedef struct cacti_arr {
    cacti_dp dp;
    double access_time, cycle_time;
    double delay_before_outdrv, delay_outdrv_to_out, delay_samux_dec;
    double e_read, e_write, e_search;
    double leak, gleak;
    double area, height, width, cell_area;
} cacti_arr;

/* Static inputs of the search for one array. */
typedef struct cacti_req {
    const cacti_spec *spec;
    const cacti_tech *t;
    int is_tag;
    int tagbits;
    int out_w;       /* bits read per access */
    int assoc;       /* ways (1 for a RAM) */
} cacti_req;

/* Fill dp for a candidate partition; 0 if the partition is not valid. */
int cacti_dp_init(const cacti_req *rq, double nspd, int ndwl, int ndbl, int ndcm, int ndsam1,
                  int ndsam2, cacti_dp *dp);
int cacti_arr_eval(const cacti_req *rq, const cacti_dp *dp, cacti_matcache *mc, cacti_arr *a);
/* Fill the mux-independent part of dp (rows, cols, cell); 0 if invalid. */
int cacti_dp_rows(const cacti_req *rq, double nspd, int ndwl, int ndbl, cacti_dp *dp);
/* dp for one mux choice of the partition in base (from cacti_dp_rows); 0 if invalid. */
int cacti_dp_split(const cacti_req *rq, const cacti_dp *base, int ndcm, int ndsam1, int ndsam2, cacti_dp *dp);
/* Lower bounds for the branch-and-bound search (partition.c): the part of
 * the access time and read energy fixed by (nspd, ndwl, ndbl), and the full
 * bound of one mux choice. */
typedef struct cacti_gbound {
    double t_in, t_out;  /* H-tree wires in and out (out includes the subarray output wire) */
    double t_row;        /* row predecode + decode */
    double e_tree;       /* data bus and fewest address bits over the H-trees */
    double e_data_tree;  /* data bus only */
    double e_addr_bit;   /* one address bit over the in-bank and inter-bank trees */
    double e_mat_fixed;  /* per active mat: wordline drivers, row predecoder, precharge drivers */
    double c_fixed;      /* wordline decode + reset + bitline restore */
    double t_lb, e_lb, c_lb; /* bounds valid for every mux choice of the partition */
    double out_lb;           /* bound on the part of t_lb after the subarray output driver input */
} cacti_gbound;
int cacti_group_prep(const cacti_req *rq, double nspd, int ndwl, int ndbl, cacti_matcache *mc,
                     cacti_gbound *gb, int with_trees);
void cacti_split_bound(const cacti_req *rq, const cacti_dp *dp, cacti_matcache *mc, const cacti_gbound *gb,
                       double *t_lb, double *e_lb, double *c_lb, double *out_lb);
int cacti_cam_eval(const cacti_req *rq, int ndbl, cacti_arr *a);

/* ---- search (partition.c) ---- */
cacti_status cacti_search(const cacti_spec *spec, const cacti_tech *t, cacti_result *res);
/* Same, optionally forcing the exhaustive search (tests compare both). */
cacti_status cacti_search_ex(const cacti_spec *spec, const cacti_tech *t, cacti_result *res, int exhaustive);

/* ---- errors (memo.c) ---- */
cacti_status cacti_fail(cacti_status st, const char *fmt, ...) CACTI_PRINTF(2, 3);
void cacti_clear_error(void);

int cacti_ilog2(uint64_t v);   /* floor(log2 v), v > 0 */
int cacti_is_pow2(uint64_t v);

#endif
