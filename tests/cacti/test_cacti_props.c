/*
 * test_cacti_props.c - physical properties and API contract of cacti/.
 *
 * - energy and area grow with capacity; more ports cost energy and area;
 *   leakage grows with temperature; a smaller node lowers the energy per
 *   access of the same structure; LSTP cells leak less than HP cells;
 * - invalid specs fail with an error code and a message, never abort;
 * - results are memoised, deterministic and identical across threads;
 * - the branch-and-bound search picks the organisation the exhaustive
 *   search picks, for every objective;
 * - fully associative / CAM structures solve and search energy grows with
 *   the number of entries.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cacti.h"
#include "cacti_int.h"

static cacti_spec ram(uint64_t size, uint32_t line, uint32_t node)
{
    cacti_spec s;
    cacti_spec_init(&s);
    s.is_cache = 0;
    s.assoc = 1;
    s.size_bytes = size;
    s.line_bytes = line;
    s.output_bits = 8 * line;
    s.node_nm = node;
    return s;
}

static cacti_spec cache(uint64_t size, uint32_t line, uint32_t assoc, uint32_t node)
{
    cacti_spec s = ram(size, line, node);
    s.is_cache = 1;
    s.assoc = assoc;
    s.output_bits = 8 * line > 512 ? 512 : 8 * line;
    return s;
}

static cacti_result solve_ok(const cacti_spec *s)
{
    cacti_result r;
    cacti_status st = cacti_solve(s, &r);
    if (st != CACTI_OK)
        fail_msg("solve failed: %s", cacti_last_error());
    assert_true(r.access_time_ns > 0 && r.cycle_time_ns > 0 && r.read_energy_nj > 0 && r.write_energy_nj > 0);
    assert_true(r.leakage_mw > 0 && r.area_mm2 > 0);
    return r;
}

static void test_size_grows(void **state)
{
    (void)state;
    /* The organisation is re-optimised (ED^2 on read energy) at every size,
     * so read energy, area and leakage must grow with every doubling; write
     * energy, which the objective does not see, must grow over every 4x. */
    const uint32_t nodes[] = {90, 45, 22};
    for (int n = 0; n < 3; n++) {
        for (int c = 0; c < 2; c++) {
            cacti_result hist[16];
            int k = 0;
            for (uint64_t sz = 4096; sz <= (2u << 20); sz *= 2, k++) {
                cacti_spec s = c ? cache(sz, 64, 2, nodes[n]) : ram(sz, 64, nodes[n]);
                hist[k] = solve_ok(&s);
                const cacti_result *r = &hist[k], *p = k ? &hist[k - 1] : NULL;
                if (p && !(r->read_energy_nj > p->read_energy_nj && r->area_mm2 > p->area_mm2 &&
                           r->leakage_mw > p->leakage_mw))
                    fail_msg("%s %llu B at %u nm: read energy/area/leakage did not grow", c ? "cache" : "ram",
                             (unsigned long long)sz, nodes[n]);
                if (k >= 2 && !(r->write_energy_nj > hist[k - 2].write_energy_nj))
                    fail_msg("%s %llu B at %u nm: write energy did not grow over 4x", c ? "cache" : "ram",
                             (unsigned long long)sz, nodes[n]);
            }
        }
    }
}

static void test_ports_cost(void **state)
{
    (void)state;
    const uint32_t p[][3] = {{1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {2, 1, 1}, {2, 2, 2}};
    cacti_result prev = {0};
    for (int i = 0; i < 5; i++) {
        cacti_spec s = ram(32768, 16, 45);
        s.rw_ports = p[i][0];
        s.rd_ports = p[i][1];
        s.wr_ports = p[i][2];
        cacti_result r = solve_ok(&s);
        if (i > 0 && !(r.read_energy_nj > prev.read_energy_nj && r.write_energy_nj > prev.write_energy_nj &&
                       r.area_mm2 > prev.area_mm2))
            fail_msg("ports %u/%u/%u did not cost more energy and area than the previous set", p[i][0], p[i][1],
                     p[i][2]);
        prev = r;
    }
}

static void test_leakage_temperature(void **state)
{
    (void)state;
    const uint32_t nodes[] = {90, 65, 45, 32, 22, 16};
    for (int n = 0; n < 6; n++) {
        for (int d = 0; d < 3; d++) {
            double prev = 0;
            for (double T = 300; T <= 400; T += 25) {
                cacti_spec s = cache(65536, 64, 4, nodes[n]);
                s.cell_dev = s.periph_dev = (cacti_device)d;
                s.temperature_k = T;
                cacti_result r = solve_ok(&s);
                if (T > 300 && !(r.leakage_mw > prev))
                    fail_msg("leakage did not grow from %g K to %g K at %u nm, flavour %d", T - 25, T, nodes[n], d);
                prev = r.leakage_mw;
            }
        }
    }
}

static void test_node_scaling(void **state)
{
    (void)state;
    const uint32_t nodes[] = {90, 65, 45, 32, 22, 16};
    cacti_spec specs[] = {ram(16384, 16, 0), cache(65536, 64, 2, 0), cache(1 << 20, 128, 8, 0)};
    for (int k = 0; k < 3; k++) {
        double prev = 0;
        for (int n = 0; n < 6; n++) {
            specs[k].node_nm = nodes[n];
            cacti_result r = solve_ok(&specs[k]);
            if (n > 0 && !(r.read_energy_nj < prev))
                fail_msg("structure %d: read energy at %u nm is not below the previous node", k, nodes[n]);
            prev = r.read_energy_nj;
        }
    }
}

static void test_flavours(void **state)
{
    (void)state;
    cacti_spec s = ram(65536, 32, 32);
    cacti_result hp = solve_ok(&s);
    s.cell_dev = s.periph_dev = CACTI_DEV_LSTP;
    cacti_result lstp = solve_ok(&s);
    assert_true(lstp.leakage_mw < 0.01 * hp.leakage_mw);
    assert_true(lstp.access_time_ns > hp.access_time_ns);
}

static void expect_error(const cacti_spec *s, cacti_status want, const char *needle)
{
    cacti_result r;
    cacti_status st = cacti_solve(s, &r);
    assert_int_equal(st, want);
    const char *msg = cacti_last_error();
    assert_true(msg[0] != '\0');
    assert_null(strchr(msg, '\n'));
    if (needle && !strstr(msg, needle))
        fail_msg("message '%s' lacks '%s'", msg, needle);
}

static void test_invalid_specs(void **state)
{
    (void)state;
    cacti_spec s = cache(65536, 64, 3, 32);
    expect_error(&s, CACTI_EINVAL, "associativity");
    s = cache(65536, 48, 2, 32);
    expect_error(&s, CACTI_EINVAL, "line size");
    s = ram(256, 64, 32);
    expect_error(&s, CACTI_EINVAL, "minimum array");
    s = ram(65536, 64, 28);
    expect_error(&s, CACTI_EINVAL, "node");
    s = ram(65536, 64, 32);
    s.temperature_k = 450;
    expect_error(&s, CACTI_EINVAL, "temperature");
    s = ram(65536, 64, 32);
    s.rw_ports = 0;
    expect_error(&s, CACTI_EINVAL, "port");
    s = ram(65536, 64, 32);
    s.banks = 3;
    expect_error(&s, CACTI_EINVAL, "bank");
    s = ram(65536, 64, 32);
    s.size_bytes = 0;
    expect_error(&s, CACTI_EINVAL, "size");
    s = cache(65536, 64, 2, 32);
    s.output_bits = 1024;
    expect_error(&s, CACTI_EINVAL, "output width");
    assert_int_equal(cacti_solve(NULL, NULL), CACTI_EINVAL);
    assert_string_equal(cacti_status_str(CACTI_ENOSOL), "no valid organisation");
}

static void test_memo(void **state)
{
    (void)state;
    cacti_memo_clear();
    assert_int_equal(cacti_memo_count(), 0);
    cacti_spec s = cache(32768, 64, 4, 45);
    cacti_result a = solve_ok(&s), b = solve_ok(&s);
    assert_int_equal(cacti_memo_count(), 1);
    assert_memory_equal(&a, &b, sizeof a);
    /* a different spec is a different entry; output_bits 0 means the line */
    cacti_spec r1 = ram(8192, 32, 45), r2 = r1;
    r2.output_bits = 0;
    cacti_result x = solve_ok(&r1), y = solve_ok(&r2);
    assert_memory_equal(&x, &y, sizeof x);
    assert_int_equal(cacti_memo_count(), 2);
    /* a cold solve gives the same bytes */
    cacti_memo_clear();
    cacti_result c = solve_ok(&s);
    assert_memory_equal(&a, &c, sizeof a);
}

#define NTHREAD 4
#define NSPEC 6

static cacti_spec tspecs[NSPEC];
static cacti_result tserial[NSPEC];

static void *worker(void *arg)
{
    intptr_t id = (intptr_t)arg;
    for (int rep = 0; rep < 3; rep++)
        for (int i = 0; i < NSPEC; i++) {
            int k = (int)((i + id) % NSPEC);
            cacti_result r;
            if (cacti_solve(&tspecs[k], &r) != CACTI_OK || memcmp(&r, &tserial[k], sizeof r) != 0)
                return (void *)1;
        }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    tspecs[0] = ram(4096, 8, 90);
    tspecs[1] = ram(65536, 32, 32);
    tspecs[2] = cache(131072, 64, 4, 45);
    tspecs[3] = cache(262144, 128, 8, 22);
    tspecs[4] = ram(16384, 16, 16);
    tspecs[5] = cache(65536, 64, 1, 65);
    tspecs[5].banks = 4;
    cacti_memo_clear();
    for (int i = 0; i < NSPEC; i++)
        tserial[i] = solve_ok(&tspecs[i]);
    cacti_memo_clear();
    pthread_t th[NTHREAD];
    for (intptr_t i = 0; i < NTHREAD; i++)
        assert_int_equal(pthread_create(&th[i], NULL, worker, (void *)i), 0);
    int bad = 0;
    for (int i = 0; i < NTHREAD; i++) {
        void *rv;
        pthread_join(th[i], &rv);
        bad |= rv != NULL;
    }
    assert_false(bad);
    assert_int_equal(cacti_memo_count(), NSPEC);
}

static void test_bnb_matches_exhaustive(void **state)
{
    (void)state;
    cacti_spec specs[] = {ram(4096, 32, 65), ram(262144, 8, 45), cache(262144, 128, 8, 90),
                          cache(65536, 64, 2, 32), cache(2 << 20, 64, 4, 22), ram(98304, 16, 45)};
    specs[1].rd_ports = 1;
    specs[5].banks = 2;
    specs[5].rw_ports = 0;
    specs[5].rd_ports = 2;
    specs[5].wr_ports = 2;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        cacti_tech t;
        assert_int_equal(cacti_tech_build(specs[i].node_nm, specs[i].cell_dev, specs[i].periph_dev,
                                          specs[i].temperature_k, &t),
                         CACTI_OK);
        for (int obj = 0; obj < 4; obj++) {
            cacti_spec s = specs[i];
            s.objective = (cacti_objective)obj;
            cacti_result a, b;
            assert_int_equal(cacti_search_ex(&s, &t, &a, 0), CACTI_OK);
            assert_int_equal(cacti_search_ex(&s, &t, &b, 1), CACTI_OK);
            if (memcmp(&a, &b, sizeof a) != 0)
                fail_msg("spec %zu objective %d: bounded search differs from exhaustive", i, obj);
        }
    }
}

static void test_tech_tables(void **state)
{
    (void)state;
    const unsigned nodes[] = {90, 65, 45, 32, 22, 16};
    double prev_local_r = 0;
    for (int n = 0; n < 6; n++) {
        for (int d = 0; d < 3; d++) {
            cacti_tech lo, hi;
            assert_int_equal(cacti_tech_build(nodes[n], (cacti_device)d, (cacti_device)d, 300, &lo), CACTI_OK);
            assert_int_equal(cacti_tech_build(nodes[n], (cacti_device)d, (cacti_device)d, 395, &hi), CACTI_OK);
            assert_true(lo.peri.Vdd > 0.5 && lo.peri.Vdd < 1.5 && lo.peri.Vth > 0.1 && lo.peri.Vth < lo.peri.Vdd);
            assert_true(lo.peri.C_g_ideal > 0 && lo.peri.I_on_n > 0 && lo.peri.R_nch_on > 0);
            assert_true(hi.peri.I_off_n > lo.peri.I_off_n);
            /* wider, thicker layers have less resistance per micron */
            assert_true(lo.local.R_per_um > lo.inside.R_per_um && lo.inside.R_per_um > lo.global.R_per_um);
            assert_true(lo.sram_b_w * lo.sram_b_h > 0 && lo.cam_b_w * lo.cam_b_h > 1.9 * lo.sram_b_w * lo.sram_b_h);
            assert_true(lo.rep_h.delay >= lo.rep_opt.delay && lo.rep_h.delay <= 1.3 * lo.rep_opt.delay + 1e-30);
            assert_true(lo.rep_h.dyn <= lo.rep_opt.dyn);
            if (d == 0) {
                assert_true(lo.local.R_per_um > prev_local_r);
                prev_local_r = lo.local.R_per_um;
            }
        }
        cacti_tech hp, lstp;
        cacti_tech_build(nodes[n], CACTI_DEV_HP, CACTI_DEV_HP, 360, &hp);
        cacti_tech_build(nodes[n], CACTI_DEV_LSTP, CACTI_DEV_LSTP, 360, &lstp);
        assert_true(lstp.peri.I_off_n < 0.01 * hp.peri.I_off_n);
    }
    cacti_tech t;
    assert_int_equal(cacti_tech_build(28, CACTI_DEV_HP, CACTI_DEV_HP, 360, &t), CACTI_EINVAL);
    assert_int_equal(cacti_tech_build(32, CACTI_DEV_HP, CACTI_DEV_HP, 299, &t), CACTI_EINVAL);
}

static void test_cam(void **state)
{
    (void)state;
    double prev = 0;
    for (uint64_t entries = 64; entries <= 1024; entries *= 4) {
        cacti_spec s = cache(entries * 64, 64, 0, 32);
        cacti_result r = solve_ok(&s);
        assert_true(r.search_energy_nj > 0);
        assert_true(r.search_energy_nj > prev);
        prev = r.search_energy_nj;
    }
    cacti_spec c = ram(2048, 8, 45);
    c.assoc = 0; /* pure CAM of 256 64-bit words */
    cacti_result r = solve_ok(&c);
    assert_true(r.search_energy_nj > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size_grows),
        cmocka_unit_test(test_ports_cost),
        cmocka_unit_test(test_leakage_temperature),
        cmocka_unit_test(test_node_scaling),
        cmocka_unit_test(test_flavours),
        cmocka_unit_test(test_invalid_specs),
        cmocka_unit_test(test_memo),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_bnb_matches_exhaustive),
        cmocka_unit_test(test_tech_tables),
        cmocka_unit_test(test_cam),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
