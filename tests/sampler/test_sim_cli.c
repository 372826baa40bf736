/*
 * test_sim_cli.c - `gpuest simulate` end to end: help, table/JSON/CSV output,
 * power-trace windows, and one-line errors with the right exit codes for
 * bad configs, overrides, options and inputs.  argv[1] is the gpuest binary.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

static const char *gpuest;
static char out[1 << 20], err[1 << 16];

static void slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    buf[n] = 0;
    if (f)
        fclose(f);
}

/* Run `gpuest ARGS`; returns the exit status, fills out/err. */
static int run(const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s >/tmp/gpuest_sim_cli.out.%d 2>/tmp/gpuest_sim_cli.err.%d", gpuest, args,
             (int)getpid(), (int)getpid());
    int st = system(cmd);
    char p[64];
    snprintf(p, sizeof p, "/tmp/gpuest_sim_cli.out.%d", (int)getpid());
    slurp(p, out, sizeof out);
    remove(p);
    snprintf(p, sizeof p, "/tmp/gpuest_sim_cli.err.%d", (int)getpid());
    slurp(p, err, sizeof err);
    remove(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#define CFG "--config tests/sampler/data/test_volta.cfg "
#define TRACE "--trace tests/data/traces/vectoradd_sm61 "

static void one_line_error(const char *needle)
{
    size_t n = strlen(err);
    assert_true(n > 0 && err[n - 1] == '\n');
    assert_null(strchr(err, '\n') != err + n - 1 ? "more than one line" : NULL);
    assert_true(strncmp(err, "gpuest simulate: ", 17) == 0);
    if (!strstr(err, needle))
        fail_msg("error '%s' does not mention '%s'", err, needle);
}

static void test_help(void **st)
{
    (void)st;
    assert_int_equal(run("simulate --help"), 0);
    const char *opts[] = {"--config", "--trace", "--workload", "--size", "--seed", "--scheduler", "--mem",
                          "--set", "--json", "--csv", "--power-trace", "--activity-trace", "--interval",
                          "lrr|gto|two_level"};
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
        if (!strstr(out, opts[i]))
            fail_msg("--help does not document %s", opts[i]);
}

static void test_outputs(void **st)
{
    (void)st;
    assert_int_equal(run("simulate " CFG TRACE "--mem perfect"), 0);
    assert_non_null(strstr(out, "_Z6vecAddIfEvPT_S1_S1_i")); /* the kernel's row */
    assert_non_null(strstr(out, "dependency"));
    assert_int_equal(run("simulate " CFG TRACE "--json"), 0);
    const char *keys[] = {"\"config\"", "\"workload\"", "\"kernels\"", "\"total\"", "\"name\"", "\"grid\"",
                          "\"block\"", "\"cycles\"", "\"warp_instructions\": 344", "\"thread_instructions\"",
                          "\"ipc\"", "\"cpi_stack\"", "\"l1_hit_rate\"", "\"l2_hit_rate\"", "\"dram_row_hit_rate\"",
                          "\"dram_bw_util\"", "\"avg_mem_latency\"", "\"occupancy\"", "\"activity\"",
                          "\"icache_hits\"", "\"issued\"", "\"idle\""};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (!strstr(out, keys[i]))
            fail_msg("JSON lacks %s", keys[i]);
    assert_int_equal(run("simulate " CFG TRACE "--csv --scheduler lrr"), 0);
    const char *head = "kernel,grid,block,cycles,warp_insts,ipc,issued,";
    assert_true(strncmp(out, head, strlen(head)) == 0);
    assert_non_null(strstr(out, ",act_dram_activates,"));
    assert_non_null(strstr(out, ",lanes_fp32_fma,"));
    assert_non_null(strstr(out, "\ntotal,"));
}

static void test_power_trace(void **st)
{
    (void)st;
    char path[64], args[512];
    snprintf(path, sizeof path, "/tmp/gpuest_sim_cli_pt.%d.csv", (int)getpid());
    snprintf(args, sizeof args, "simulate " CFG TRACE "--power-trace %s --interval 100", path);
    assert_int_equal(run(args), 0);
    static char csv[1 << 16];
    slurp(path, csv, sizeof csv);
    remove(path);
    /* watts per component, one row per window */
    assert_true(strncmp(csv, "start_cycle,time_s,cycles,total_w,", 34) == 0);
    int rows = 0;
    for (char *p = csv; (p = strchr(p, '\n')); p++)
        rows++;
    assert_true(rows >= 3); /* header + several windows of 100 cycles */
    /* the raw activity counters instead */
    snprintf(args, sizeof args, "simulate " CFG TRACE "--activity-trace %s --interval 100", path);
    assert_int_equal(run(args), 0);
    slurp(path, csv, sizeof csv);
    remove(path);
    assert_true(strncmp(csv, "kernel,kernel_id,start_cycle,window_cycles,cycles,", 50) == 0);
}

static void test_errors(void **st)
{
    (void)st;
    assert_int_equal(run("simulate " TRACE), 2); /* no --config */
    assert_int_equal(run("simulate " CFG TRACE "--bogus"), 2);
    assert_int_equal(run("simulate " CFG TRACE "--workload x"), 2); /* both sources */
    assert_int_equal(run("simulate " CFG TRACE "--interval 10"), 2); /* without --power-trace */
    assert_int_equal(run("simulate " CFG TRACE "--set l1d.line_bytes=100"), 1);
    one_line_error("l1d.");
    assert_int_equal(run("simulate " CFG TRACE "--set nosuch.key=1"), 1);
    one_line_error("nosuch.key");
    assert_int_equal(run("simulate " CFG TRACE "--set sm.issue_width=99"), 1);
    one_line_error("sm.issue_width");
    assert_int_equal(run("simulate " CFG TRACE "--scheduler fifo"), 1);
    one_line_error("fifo");
    assert_int_equal(run("simulate " CFG TRACE "--mem magic"), 1);
    one_line_error("magic");
    assert_int_equal(run("simulate --config no/such.cfg " TRACE), 1);
    one_line_error("no/such.cfg");
    assert_int_equal(run("simulate " CFG "--trace tests/data/traces/does_not_exist"), 1);
    one_line_error("does_not_exist");
    assert_int_equal(run("simulate --config tests/sampler/data/test_fermi.cfg --trace tests/data/traces/bad/truncated.traceg"), 1);
    one_line_error("truncated");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_sim_cli PATH_TO_GPUEST\n");
        return 2;
    }
    gpuest = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_outputs),
        cmocka_unit_test(test_power_trace),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
