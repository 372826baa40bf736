/*
 * cmd_profile.c - `gpuest profile`: measure a workload once and save the
 * profile every estimate at every design point reuses.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cli_source.h"
#include "profile.h"
#include "profiler.h"
#include "progress.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpuest profile (--trace PATH | --workload NAME [--size N] [--seed S]) -o FILE [options]\n"
            "\n"
            "Streams the workload once and writes its profile (instruction mix, dependency\n"
            "intervals of representative warps, coalescing, reuse histograms, CTA clusters and\n"
            "sample CTAs) to FILE, a versioned xz-compressed file (docs/profile-format.md).\n"
            "\n"
            "options:\n"
            "  --trace PATH       Accel-Sim trace (kernelslist.g, its directory, or a .traceg[.xz])\n"
            "  --workload NAME    suite workload (see gpuest workloads)\n"
            "  --size N           workload size parameter (default: the workload's realistic size)\n"
            "  --seed S           input seed (default 1)\n"
            "  -o, --output FILE  profile file to write (required)\n"
            "  --sms LIST         SM counts to prepare L1 histograms for, comma-separated\n"
            "                     (default: 1,15,30,80,108,132: one SM, which the hybrid\n"
            "                     compares its samples with, and the shipped configs)\n"
            "  --sample N         sample CTAs kept per kernel for hybrid mode (default 64)\n"
            "  -h, --help         this help\n");
}

int cmd_profile(int argc, char **argv)
{
    static const struct option opts[] = {{"trace", required_argument, 0, 't'},
                                         {"workload", required_argument, 0, 'w'},
                                         {"size", required_argument, 0, 'n'},
                                         {"seed", required_argument, 0, 's'},
                                         {"output", required_argument, 0, 'o'},
                                         {"sms", required_argument, 0, 'm'},
                                         {"sample", required_argument, 0, 'S'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *spec = NULL, *outp = NULL;
    uint32_t size = 0;
    uint64_t seed = 1;
    prof_options po;
    prof_options_default(&po);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        char *end;
        switch (c) {
        case 't':
        case 'w':
            spec = optarg;
            break;
        case 'n': {
            uint64_t v;
            if (cli_parse_u64(optarg, UINT32_MAX, &v)) {
                fprintf(stderr, "gpuest profile: --size needs a number\n");
                return 2;
            }
            size = (uint32_t)v;
            break;
        }
        case 's':
            if (cli_parse_u64(optarg, UINT64_MAX, &seed)) {
                fprintf(stderr, "gpuest profile: --seed needs a number\n");
                return 2;
            }
            break;
        case 'o':
            outp = optarg;
            break;
        case 'm': {
            po.n_nsms = 0;
            char *s = optarg;
            while (*s && po.n_nsms < PROF_MAX_NSMS) {
                unsigned long v = strtoul(s, &end, 10);
                if (end == s || v == 0 || v > 1024 || (*end && *end != ',')) {
                    fprintf(stderr, "gpuest profile: --sms needs a comma-separated list of SM counts\n");
                    return 2;
                }
                po.nsms[po.n_nsms++] = (uint32_t)v;
                s = *end ? end + 1 : end;
            }
            break;
        }
        case 'S': {
            uint64_t v;
            if (cli_parse_u64(optarg, 4096, &v) || v == 0) {
                fprintf(stderr, "gpuest profile: --sample needs a number in 1..4096\n");
                return 2;
            }
            po.max_sample = (uint32_t)v;
            break;
        }
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (!spec || !outp || optind != argc) {
        usage(stderr);
        return 2;
    }
    ge_err e;
    ws_source *src;
    if (cli_open_source(spec, size, seed, &src, &e)) {
        fprintf(stderr, "gpuest profile: %s\n", e.msg);
        return 1;
    }
    profile p;
    double t0 = ge_now();
    int rc = prof_build(src, &po, spec, size, seed, &p, &e);
    ws_close(src);
    if (rc == 0) {
        rc = prof_save(&p, outp, &e);
        if (rc == 0) {
            double insts = 0;
            for (uint32_t k = 0; k < p.nkernels; k++)
                insts += p.k[k].warp_insts;
            fprintf(stderr, "gpuest profile: %u kernels, %.0f warp instructions, %.2f s -> %s\n", p.nkernels,
                    insts, ge_now() - t0, outp);
        }
        prof_free(&p);
    }
    if (rc) {
        fprintf(stderr, "gpuest profile: %s\n", e.msg);
        return 1;
    }
    return 0;
}
