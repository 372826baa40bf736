/*
 * pwr_arrays.c - GPU storage structures as CACTI specs.
 *
 * Every structure is a plain RAM or a fully associative CAM; caches are
 * built from parts rather than with CACTI's cache mode, so one model holds
 * for every geometry a sweep may produce (CACTI's cache mode needs a
 * power-of-two associativity of at most 64 and enough sets for a tag array,
 * which GPU L1s with 4 sets x 64 ways or L2 slices with 24 ways do not
 * have, and switching models between neighbouring design points would put
 * steps into energy-delay curves):
 *   data array - RAM of the capacity, one sector read or written per access;
 *   tag array  - RAM with one row per set holding all ways' tags, read once
 *                per access; or, with fewer than PWR_TAG_RAM_MIN_SETS sets,
 *                a CAM over sets x ways entries, searched per access;
 *   MSHR       - CAM over the entries, searched and written per miss.
 * Tag entries hold PWR_ADDR_BITS - log2(sets) - log2(line) tag bits, a
 * valid and a dirty bit and one valid bit per sector.
 *
 * CACTI accepts power-of-two rows, ports and banks, a whole number of rows
 * per bank and a minimum array size; requests are rounded up to the next
 * acceptable spec, and if CACTI still finds no organisation the capacity is
 * doubled (at most PAD_TRIES times).  Every rounding is written into the
 * array's `how` string, which `gpuest power` prints.  ECC is off (the same
 * for every config; the data-centre parts' ECC would add 1/8 to array
 * energies).  Cells and periphery use ITRS-HP devices, as GPUWattch's McPAT
 * configuration does for the GPU core.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cacti.h"
#include "pwr_int.h"

#define PAD_TRIES 6
#define MAX_BANKS 1024u

static uint64_t pow2_ceil(uint64_t v)
{
    uint64_t p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

static uint32_t ilog2(uint64_t v)
{
    uint32_t l = 0;
    while (v > 1) {
        v >>= 1;
        l++;
    }
    return l;
}

static void base_spec(cacti_spec *s, const pwr_tech *t)
{
    cacti_spec_init(s);
    s->node_nm = t->cacti_nm;
    s->temperature_k = t->temp_k;
    s->cell_dev = CACTI_DEV_HP;
    s->periph_dev = CACTI_DEV_HP;
    s->ecc = 0;
    s->is_cache = 0;
    s->rw_ports = 1;
}

/* Solve s, doubling the capacity while CACTI finds no organisation. */
static int solve_padded(cacti_spec *s, cacti_result *r, int *pads, const char *name, ge_err *e)
{
    *pads = 0;
    for (;;) {
        cacti_status st = cacti_solve(s, r);
        if (st == CACTI_OK)
            return 0;
        if ((st != CACTI_ENOSOL && st != CACTI_EINVAL) || *pads >= PAD_TRIES ||
            s->size_bytes > ((uint64_t)1 << 34))
            return ge_errf(e, "power: %s: cacti: %s", name, cacti_last_error());
        s->size_bytes *= 2;
        (*pads)++;
    }
}

static void fill(pwr_array *a, const pwr_tech *t, const cacti_result *r, uint32_t banks)
{
    a->present = 1;
    a->read_j = r->read_energy_nj * 1e-9 * t->arr_energy;
    a->write_j = r->write_energy_nj * 1e-9 * t->arr_energy;
    a->search_j = r->search_energy_nj * 1e-9 * t->arr_energy;
    a->leak_w = r->leakage_mw * 1e-3 * banks * t->arr_leak;
    a->area_mm2 = r->area_mm2 * t->arr_area;
}

static void init(pwr_array *a, const char *name, pwr_component comp, double count)
{
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", name);
    a->comp = comp;
    a->count = count;
}

int pwr_array_ram(pwr_array *a, const pwr_tech *t, const char *name, pwr_component comp,
                  uint64_t bytes, uint32_t row_bytes, uint32_t port_bits, uint32_t banks, double count,
                  ge_err *e)
{
    init(a, name, comp, count);
    if (bytes == 0 || count <= 0)
        return 0;
    uint32_t nb = (uint32_t)pow2_ceil(banks ? banks : 1);
    if (nb > MAX_BANKS)
        nb = MAX_BANKS;
    uint32_t port = (uint32_t)pow2_ceil(port_bits ? port_bits : 8);
    uint32_t row = (uint32_t)pow2_ceil(row_bytes ? row_bytes : 1);
    if ((uint64_t)row * 8 < port)
        row = port / 8;
    uint64_t per_bank = (bytes + nb - 1) / nb;
    per_bank = (per_bank + row - 1) / row * row;
    cacti_spec s;
    base_spec(&s, t);
    s.size_bytes = per_bank * nb;
    s.line_bytes = row;
    s.assoc = 1;
    s.banks = nb;
    s.output_bits = port;
    cacti_result r;
    int pads;
    if (solve_padded(&s, &r, &pads, name, e))
        return -1;
    fill(a, t, &r, nb);
    const char *note = s.size_bytes == bytes ? "" : pads ? " (rounded up, padded)" : " (rounded up)";
    snprintf(a->how, sizeof a->how, "RAM %" PRIu64 " B, %u bank%s, %u B rows, %u-bit port%s",
             (uint64_t)s.size_bytes, nb, nb > 1 ? "s" : "", row, port, note);
    return 0;
}

int pwr_array_cam(pwr_array *a, const pwr_tech *t, const char *name, pwr_component comp,
                  uint32_t entries, uint32_t entry_bits, double count, ge_err *e)
{
    init(a, name, comp, count);
    if (entries == 0 || count <= 0)
        return 0;
    uint32_t line = (uint32_t)pow2_ceil((entry_bits + 7) / 8);
    cacti_spec s;
    base_spec(&s, t);
    s.assoc = 0;
    s.search_ports = 1;
    s.line_bytes = line;
    s.size_bytes = (uint64_t)entries * line;
    s.output_bits = line * 8;
    cacti_result r;
    int pads;
    if (solve_padded(&s, &r, &pads, name, e))
        return -1;
    fill(a, t, &r, 1);
    snprintf(a->how, sizeof a->how, "CAM %" PRIu64 " x %u-bit entries%s",
             (uint64_t)(s.size_bytes / line), line * 8, pads ? " (padded)" : "");
    return 0;
}

int pwr_cache_build(pwr_cache *c, const pwr_tech *t, const char *name, pwr_component comp,
                    const gcfg_cache *cc, double count, ge_err *e)
{
    char nm[40];
    memset(c, 0, sizeof *c);
    if (cc->size_bytes == 0 || cc->line_bytes == 0 || cc->sets == 0 || cc->ways == 0) {
        init(&c->data, name, comp, 0);
        return 0;
    }
    uint32_t sector = cc->sector_bytes ? cc->sector_bytes : cc->line_bytes;
    snprintf(nm, sizeof nm, "%s.data", name);
    if (pwr_array_ram(&c->data, t, nm, comp, cc->size_bytes, cc->line_bytes, sector * 8,
                      cc->banks ? cc->banks : 1, count, e))
        return -1;

    uint32_t sectors = cc->line_bytes / sector;
    int tag_bits = PWR_ADDR_BITS - (int)ilog2(cc->sets) - (int)ilog2(cc->line_bytes);
    if (tag_bits < 8)
        tag_bits = 8;
    uint32_t entry_bits = (uint32_t)tag_bits + 2 + sectors;
    snprintf(nm, sizeof nm, "%s.tag", name);
    if (cc->sets >= PWR_TAG_RAM_MIN_SETS) {
        uint32_t row_bits = cc->ways * entry_bits;
        uint32_t row = (row_bits + 7) / 8;
        if (pwr_array_ram(&c->tag, t, nm, comp, (uint64_t)cc->sets * pow2_ceil(row), row, row_bits, 1,
                          count, e))
            return -1;
    } else if (pwr_array_cam(&c->tag, t, nm, comp, cc->sets * cc->ways, entry_bits, count, e)) {
        return -1;
    }

    snprintf(nm, sizeof nm, "%s.mshr", name);
    if (cc->mshr_entries &&
        pwr_array_cam(&c->mshr, t, nm, comp, cc->mshr_entries,
                      (uint32_t)(PWR_ADDR_BITS - ilog2(cc->line_bytes)), count, e))
        return -1;
    return 0;
}

double pwr_cache_tag_j(const pwr_cache *c)
{
    return c->tag.search_j > 0 ? c->tag.search_j : c->tag.read_j;
}

/* Reference for logic leakage: a 32 KB HP register-file-like array (the
 * densest HP circuit CACTI models); its leakage per mm^2 at the CACTI node
 * stands for HP logic (docs/power.md: a proxy, likely high for logic built
 * from mixed-Vt cells, which calibration of power.scale.static corrects). */
#define LEAK_REF_BYTES 32768u
#define LEAK_REF_ROW 128u
#define LEAK_REF_PORT 1024u

int pwr_logic_leak_density(const pwr_tech *t, double *w_per_mm2, ge_err *e)
{
    cacti_spec s;
    base_spec(&s, t);
    s.size_bytes = LEAK_REF_BYTES;
    s.line_bytes = LEAK_REF_ROW;
    s.assoc = 1;
    s.output_bits = LEAK_REF_PORT;
    cacti_result r;
    int pads;
    if (solve_padded(&s, &r, &pads, "logic leakage reference", e))
        return -1;
    if (!(r.area_mm2 > 0))
        return ge_errf(e, "power: logic leakage reference: cacti returned zero area");
    *w_per_mm2 = r.leakage_mw * 1e-3 / r.area_mm2 * (t->vdd_v / t->cacti_vdd_v);
    return 0;
}
