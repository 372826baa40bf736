/*
 * commands.h - the table of gpuest subcommands.
 *
 * Adding a subcommand: write cli/cmd_NAME.c with
 *     int cmd_NAME(int argc, char **argv);   (argv[0] is "NAME")
 * and add one X line below.  Each command prints its own --help, returns 0 on
 * success, 1 on a runtime error (after printing "gpuest NAME: <one line>" to
 * stderr) and 2 on a usage error.
 */
#ifndef GPUEST_COMMANDS_H
#define GPUEST_COMMANDS_H

#define GPUEST_COMMANDS(X)                                                         \
    X(stats, "per-kernel statistics of a trace or workload (mix, SIMD eff., coalescing)") \
    X(config, "show, check or import GPU configurations")                        \
    X(cacti, "SRAM/cache energy, delay, area and leakage (CACTI cache.cfg input)") \
    X(profile, "profile a workload once for fast estimates at many design points")  \
    X(estimate, "estimate cycles, CPI stack, power and energy (model, hybrid or full)") \
    X(sweep, "estimate many design points with power; energy-delay Pareto front")  \
    X(power, "power model of a config: energy per event, leakage; power from activity CSV") \
    X(simulate, "cycle-level simulation of a trace or workload (the detailed reference)") \
    X(workloads, "list the built-in workload suite (CUDA kernels run by the PTX emulator)") \
    X(run, "run a suite workload on the PTX emulator and verify it against its CPU reference") \
    X(trace, "write Accel-Sim traces of a suite workload run on the PTX emulator")

#define X(name, help) int cmd_##name(int argc, char **argv);
GPUEST_COMMANDS(X)
#undef X

#endif
