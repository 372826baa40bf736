/*
 * cmd_cacti.c - `gpuest cacti`: run the cacti/ model on a CACTI cache.cfg.
 *
 *   gpuest cacti -infile cache.cfg [--csv]
 *
 * Reads CACTI's own input format (see cacti/cfg.c), solves the array and
 * prints a readable report, or with --csv one header line and one row:
 *   access_time_ns,cycle_time_ns,read_energy_nJ,write_energy_nJ,
 *   leakage_per_bank_mW,area_mm2
 * (energies per access to one bank, leakage of one bank, area of all banks,
 * as in tests/data/cacti7/README.md).  Unknown cfg keys are reported on
 * stderr as warnings.  Errors: "gpuest cacti: <file:line: message>" and exit
 * status 1; usage errors exit with 2.
 */
#include <stdio.h>
#include <string.h>

#include "cacti.h"
#include "commands.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpuest cacti -infile FILE [--csv]\n"
            "\n"
            "Estimate access time, cycle time, dynamic energy, leakage and area of an\n"
            "SRAM array, cache or CAM described by a CACTI cache.cfg file.\n"
            "\n"
            "options:\n"
            "  -infile FILE, --infile FILE   CACTI cache.cfg input\n"
            "  --csv                         one header line and one CSV row:\n"
            "                                access_time_ns,cycle_time_ns,read_energy_nJ,\n"
            "                                write_energy_nJ,leakage_per_bank_mW,area_mm2\n"
            "  -h, --help                    this help\n");
}

static void warn_cb(void *ctx, const char *file, int line, const char *msg)
{
    (void)ctx;
    if (line > 0)
        fprintf(stderr, "gpuest cacti: warning: %s:%d: %s\n", file, line, msg);
    else
        fprintf(stderr, "gpuest cacti: warning: %s: %s\n", file, msg);
}

static const char *dev_name(cacti_device d)
{
    return d == CACTI_DEV_LSTP ? "itrs-lstp" : (d == CACTI_DEV_LOP ? "itrs-lop" : "itrs-hp");
}

static void print_org(const char *what, const cacti_org *o)
{
    printf("  %-5s array: Ndwl %u, Ndbl %u, Nspd %g, Ndcm %u, Ndsam %u x %u; subarray %u rows x %u cols;"
           " %u mats (%u active); %.3f x %.3f mm\n",
           what, o->ndwl, o->ndbl, o->nspd, o->ndcm, o->ndsam1, o->ndsam2, o->rows, o->cols, o->mats,
           o->active_mats, o->height_mm, o->width_mm);
}

int cmd_cacti(int argc, char **argv)
{
    const char *infile = NULL;
    int csv = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--csv") || !strcmp(argv[i], "-csv")) {
            csv = 1;
        } else if (!strcmp(argv[i], "-infile") || !strcmp(argv[i], "--infile")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "gpuest cacti: %s needs a file name\n", argv[i]);
                return 2;
            }
            infile = argv[++i];
        } else {
            fprintf(stderr, "gpuest cacti: unknown option '%s' (try gpuest cacti --help)\n", argv[i]);
            return 2;
        }
    }
    if (!infile) {
        fprintf(stderr, "gpuest cacti: missing -infile FILE (try gpuest cacti --help)\n");
        return 2;
    }
    cacti_spec spec;
    if (cacti_cfg_read(infile, &spec, warn_cb, NULL) != CACTI_OK) {
        fprintf(stderr, "gpuest cacti: %s\n", cacti_last_error());
        return 1;
    }
    cacti_result r;
    if (cacti_solve(&spec, &r) != CACTI_OK) {
        fprintf(stderr, "gpuest cacti: %s: %s\n", infile, cacti_last_error());
        return 1;
    }
    if (csv) {
        printf("access_time_ns,cycle_time_ns,read_energy_nJ,write_energy_nJ,leakage_per_bank_mW,area_mm2\n");
        printf("%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", r.access_time_ns, r.cycle_time_ns, r.read_energy_nj,
               r.write_energy_nj, r.leakage_mw, r.area_mm2);
        return 0;
    }
    const char *kind = spec.assoc == 0 ? (spec.is_cache ? "fully associative cache" : "CAM")
                                       : (spec.is_cache ? "cache" : "RAM");
    printf("gpuest cacti: %s\n\n", infile);
    printf("Structure\n");
    printf("  %s, %llu bytes, %u-byte lines", kind, (unsigned long long)spec.size_bytes, spec.line_bytes);
    if (spec.is_cache && spec.assoc)
        printf(", %u-way", spec.assoc);
    printf(", %u bank%s, %u output bits\n", spec.banks, spec.banks > 1 ? "s" : "", spec.output_bits);
    printf("  ports: %u read/write, %u read, %u write", spec.rw_ports, spec.rd_ports, spec.wr_ports);
    if (spec.assoc == 0)
        printf(", %u search", spec.search_ports ? spec.search_ports : 1);
    printf("\n");
    printf("  technology %u nm, cells %s, periphery %s, %.0f K%s\n", spec.node_nm, dev_name(spec.cell_dev),
           dev_name(spec.periph_dev), spec.temperature_k, spec.ecc ? ", ECC" : "");
    if (r.tag_bits)
        printf("  tag bits: %u\n", r.tag_bits);
    printf("\nTiming\n");
    printf("  access time            %10.4f ns\n", r.access_time_ns);
    printf("  random cycle time      %10.4f ns\n", r.cycle_time_ns);
    printf("\nEnergy per access (one bank, routing included)\n");
    printf("  read                   %10.5f nJ\n", r.read_energy_nj);
    printf("  write                  %10.5f nJ\n", r.write_energy_nj);
    if (spec.assoc == 0)
        printf("  search                 %10.5f nJ\n", r.search_energy_nj);
    printf("\nLeakage (one bank)\n");
    printf("  total                  %10.4f mW\n", r.leakage_mw);
    printf("  subthreshold           %10.4f mW\n", r.subthreshold_leakage_mw);
    printf("  gate                   %10.4f mW\n", r.gate_leakage_mw);
    printf("\nArea (all banks)\n");
    printf("  area                   %10.4f mm^2 (%.3f x %.3f mm, %.0f%% cells)\n", r.area_mm2, r.height_mm,
           r.width_mm, 100.0 * r.area_efficiency);
    printf("\nOrganisation\n");
    print_org("data", &r.data);
    if (r.tag.ndwl)
        print_org("tag", &r.tag);
    return 0;
}
