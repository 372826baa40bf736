/*
 * cacti.h - public API of gpuest's CACTI-class SRAM / cache / register-file /
 * CAM model.
 *
 * cacti/ is a standalone C11 library (libc, libm, pthreads only).  Given a
 * storage structure (capacity, line size, associativity, banks, ports, output
 * width, technology node, device flavour, temperature) it searches array
 * organisations (banks -> mats -> subarrays, Ndwl/Ndbl/Nspd and the column
 * and sense-amplifier multiplexing degrees) and returns access time, cycle
 * time, dynamic energy per read/write/search, leakage and area.  The circuit
 * models follow the published CACTI methodology (CACTI 5.1 report
 * HPL-2008-20, CACTI 6.0 report HPL-2009-85, CACTI 7, Balasubramonian et al.,
 * ACM TACO 2017) with ITRS-derived device and wire parameters; see
 * docs/cacti.md for equations, sources, fitted constants and accuracy.
 *
 * cacti_solve() is thread-safe and memoises results by spec.  It never
 * aborts: an invalid spec returns an error code and a one-line message that
 * cacti_last_error() returns (per thread).
 */
#ifndef GPUEST_CACTI_H
#define GPUEST_CACTI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes returned by every fallible function. */
typedef enum {
    CACTI_OK = 0,
    CACTI_EINVAL = 1,  /* invalid spec or argument */
    CACTI_ENOSOL = 2,  /* no array organisation satisfies the spec */
    CACTI_ENOMEM = 3,  /* allocation failed */
    CACTI_EIO = 4,     /* file could not be read */
    CACTI_ESYNTAX = 5  /* malformed cache.cfg line or value */
} cacti_status;

/* ITRS device flavours (CACTI "itrs-hp", "itrs-lstp", "itrs-lop"). */
typedef enum {
    CACTI_DEV_HP = 0,   /* high performance */
    CACTI_DEV_LSTP = 1, /* low standby power */
    CACTI_DEV_LOP = 2   /* low operating power */
} cacti_device;

/* How the organisation is chosen among all valid partitions. */
typedef enum {
    CACTI_OPT_ED2 = 0,      /* minimise (t/tmin)^2 * (E/Emin) */
    CACTI_OPT_ED = 1,       /* minimise (t/tmin) * (E/Emin) */
    CACTI_OPT_DELAY = 2,    /* minimum read energy among orgs within max_dev_pct of the fastest */
    CACTI_OPT_WEIGHTED = 3  /* CACTI "NONE": weighted normalised sum under the deviation limits */
} cacti_objective;

/* Tag/data access mode of a cache (CACTI "access mode"). */
typedef enum {
    CACTI_ACCESS_NORMAL = 0,     /* tag and data in parallel, way select before the data H-tree */
    CACTI_ACCESS_SEQUENTIAL = 1, /* data array accessed after the tag array */
    CACTI_ACCESS_FAST = 2        /* all ways read out in parallel with the tag */
} cacti_access_mode;

/* Index of the five CACTI optimisation metrics in weight[] and dev_pct[]. */
enum { CACTI_M_DELAY = 0, CACTI_M_DYN = 1, CACTI_M_LEAK = 2, CACTI_M_CYCLE = 3, CACTI_M_AREA = 4 };

/* A storage structure.  Initialise with cacti_spec_init() and set fields. */
typedef struct cacti_spec {
    uint64_t size_bytes;       /* total capacity of all banks, bytes */
    uint32_t line_bytes;       /* cache line (block) or RAM row width, bytes */
    uint32_t assoc;            /* ways: 1 = direct mapped / RAM, 0 = fully associative (CAM) */
    uint32_t banks;            /* UCA banks sharing the capacity (power of two) */
    uint32_t rw_ports;         /* read/write ports */
    uint32_t rd_ports;         /* exclusive read ports */
    uint32_t wr_ports;         /* exclusive write ports */
    uint32_t se_rd_ports;      /* single-ended read ports (subset of rd_ports) */
    uint32_t search_ports;     /* CAM search ports (fully associative only) */
    uint32_t output_bits;      /* output/input bus width in bits; 0 = 8 * line_bytes */
    uint32_t node_nm;          /* 90, 65, 45, 32, 22 or 16 */
    cacti_device cell_dev;     /* device flavour of the memory cells */
    cacti_device periph_dev;   /* device flavour of the peripheral circuits */
    double temperature_k;      /* 300 .. 400 K */
    int is_cache;              /* 1: tag + data arrays; 0: plain RAM (no tag) */
    uint32_t tag_bits;         /* 0 = derived from a 42-bit physical address */
    int ecc;                   /* 1: one ECC bit per 8 data bits */
    cacti_access_mode access_mode;
    cacti_objective objective;
    double max_dev_pct;        /* CACTI_OPT_DELAY: allowed access-time slack in percent */
    double weight[5];          /* CACTI_OPT_WEIGHTED and tag-array choice: metric weights */
    double dev_pct[5];         /* CACTI_OPT_WEIGHTED and tag-array choice: deviation limits, percent */
} cacti_spec;

/* Partition chosen for one array (data or tag). */
typedef struct cacti_org {
    uint32_t ndwl, ndbl;       /* wordline / bitline divisions (subarrays across / down) */
    double nspd;               /* sets mapped to one wordline */
    uint32_t ndcm;             /* bitline (column) multiplexing degree */
    uint32_t ndsam1, ndsam2;   /* sense-amplifier multiplexing, levels 1 and 2 */
    uint32_t rows, cols;       /* cells per subarray (cols include ECC) */
    uint32_t mats, active_mats;
    double height_mm, width_mm;
} cacti_org;

/* Result of one solve.  Energies are per access to one bank, H-tree routing included. */
typedef struct cacti_result {
    double access_time_ns;
    double cycle_time_ns;
    double read_energy_nj;
    double write_energy_nj;
    double search_energy_nj;   /* fully associative / CAM search; 0 otherwise */
    double leakage_mw;         /* one bank: subthreshold + gate */
    double subthreshold_leakage_mw;
    double gate_leakage_mw;
    double area_mm2;           /* whole structure, all banks */
    double height_mm, width_mm;
    double area_efficiency;    /* cell area / total area, 0..1 */
    uint32_t tag_bits;         /* 0 for a RAM */
    cacti_org data;
    cacti_org tag;             /* all zero for a RAM or CAM */
} cacti_result;

/* Fill *s with CACTI's cache.cfg template defaults (64 KB, 64 B lines, 2-way,
 * 1 bank, 1 RW port, 32 nm, itrs-hp, 360 K, ECC on, normal access, ED^2). */
void cacti_spec_init(cacti_spec *s);

/* Solve (or return the memoised result for) *spec.  Thread-safe. */
cacti_status cacti_solve(const cacti_spec *spec, cacti_result *out);

/* Check *spec without solving; same codes and messages as cacti_solve(). */
cacti_status cacti_validate(const cacti_spec *spec);

/* The one-line message of the calling thread's last failed call ("" if none). */
const char *cacti_last_error(void);

/* Short name of a status code. */
const char *cacti_status_str(cacti_status st);

/* Number of memoised results, and a way to drop them (for benchmarks). */
size_t cacti_memo_count(void);
void cacti_memo_clear(void);

/* ---- CACTI cache.cfg input ---- */

/* Called once per diagnostic that does not stop parsing (unknown key). */
typedef void (*cacti_cfg_warn_fn)(void *ctx, const char *file, int line, const char *msg);

/* Parse cache.cfg text (len bytes, need not be NUL-terminated).  name is used
 * in messages.  On success *spec holds the template defaults overridden by
 * the file.  On failure returns CACTI_ESYNTAX or CACTI_EINVAL and the message
 * ("name:line: ...") is available from cacti_last_error(). */
cacti_status cacti_cfg_parse(const char *text, size_t len, const char *name, cacti_spec *spec,
                             cacti_cfg_warn_fn warn, void *warn_ctx);

/* Read and parse a cache.cfg file (CACTI_EIO if it cannot be read). */
cacti_status cacti_cfg_read(const char *path, cacti_spec *spec, cacti_cfg_warn_fn warn,
                            void *warn_ctx);

#ifdef __cplusplus
}
#endif

#endif
