/*
 * profiler.c - the single pass over the warp stream that builds a profile.
 *
 * For every warp instruction it updates the kernel's mix and coalescing
 * counts (common/coalesce.h, 128 B lines / 32 B sectors), its CTA's
 * signature, and the warp's config-independent instruction record: the op
 * kind, the lines/sectors/bank cycles it causes, and how many instructions
 * back each source operand was produced (the dependency structure the
 * interval model replays with any latencies).
 *
 * The GTO "chunk" of an instruction counts how many times the warp has had
 * to wait for a load before reaching it: a greedy scheduler keeps issuing
 * one warp until it needs a loaded value, so chunks are the units a GTO
 * interleaving alternates between warps (model/prof_reuse.c).
 *
 * Bounded memory: warps are kept in a reservoir (Vitter's algorithm R with
 * a fixed-seed PRNG), CTAs as candidates once the kernel outgrows
 * keep_all_bytes: runs of `run` consecutive CTAs at a fixed stride, because
 * on a GPU neighbouring CTAs run at the same time (they share DRAM rows, L2
 * lines and halos) and a sample should keep them together, the L1 log only for the CTAs of the measured SMs,
 * and the L2 log is sampled by line hash (SHARDS) when it grows too long.
 */
#include "profiler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coalesce.h"
#include "prof_int.h"

#define PB_REGS 65536
#define LINE_BYTES 128
#define SECTOR_BYTES 32

void prof_options_default(prof_options *o)
{
    memset(o, 0, sizeof *o);
    /* SM counts of the shipped configs: GTX 480 15, RTX 2060 30, V100 80,
     * A100 108, H100 SXM 132 (see configs/); and 1, every CTA on one SM,
     * which is how a hybrid sample deals its runs of neighbouring CTAs. */
    static const uint32_t sms[] = {1, 15, 30, 80, 108, 132};
    o->n_nsms = sizeof sms / sizeof *sms;
    memcpy(o->nsms, sms, sizeof sms);
    o->l1_sms = 4;
    o->l1_ctas_per_sm = 96;
    o->warp_clusters = 4;
    o->cta_clusters = 8;
    o->max_sample = 64;
    o->candidates = 256;
    o->run = 8;
    o->keep_all_bytes = 8u << 20;
    o->reservoir_warps = 2048;
    o->l2_log_max = 4u << 20;
    o->seed = 1;
}

uint64_t pb_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static size_t cta_bytes(const ws_cta *c)
{
    return c->ninst * sizeof(ws_inst) + c->naddr * sizeof(uint64_t) + c->nwarps * sizeof(ws_warp);
}

static int l1_eligible(const prof_options *o, uint64_t cta)
{
    for (uint32_t i = 0; i < o->n_nsms; i++)
        if (cta % o->nsms[i] < o->l1_sms && cta / o->nsms[i] < o->l1_ctas_per_sm)
            return 1;
    return 0;
}

/* Shared memory: cycles = the most distinct 4 B words any of 32 banks serves. */
static uint32_t bank_cycles(uint32_t mask, const uint64_t *addr, uint32_t size)
{
    uint64_t words[WS_WARP_SIZE * 4];
    int nw = 0;
    uint32_t per = size >= 4 ? size / 4 : 1;
    if (per > 4)
        per = 4;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint64_t w0 = addr[__builtin_ctz(m)] / 4;
        for (uint32_t k = 0; k < per; k++) {
            uint64_t w = w0 + k;
            int dup = 0;
            for (int j = 0; j < nw && !dup; j++)
                dup = words[j] == w;
            if (!dup)
                words[nw++] = w;
        }
    }
    uint32_t cnt[32] = {0}, best = nw ? 1 : 0;
    for (int j = 0; j < nw; j++)
        if (++cnt[words[j] % 32] > best)
            best = cnt[words[j] % 32];
    return best;
}

/* ---- partition camping (profile.h) ---- */

static const uint32_t camp_counts[PROF_CAMP_NCOUNTS] = PROF_CAMP_COUNTS;
static const uint32_t camp_windows[PROF_CAMP_NWIN] = PROF_CAMP_WINDOWS;

static int camp_init(pbuild *b)
{
    for (int f = 0; f < PROF_CAMP_NFN; f++) {
        uint32_t n = camp_counts[f % PROF_CAMP_NCOUNTS];
        addrmap_init_slices(&b->camp_map[f], n, f >= PROF_CAMP_NCOUNTS);
        for (int w = 0; w < PROF_CAMP_NWIN; w++)
            if (!(b->camp_cnt[f][w] = calloc(n, sizeof(double))))
                return -1;
    }
    return 0;
}

static void camp_free(pbuild *b)
{
    for (int f = 0; f < PROF_CAMP_NFN; f++)
        for (int w = 0; w < PROF_CAMP_NWIN; w++)
            free(b->camp_cnt[f][w]);
}

static void camp_add(pbuild *b, uint64_t line, double sectors)
{
    for (int f = 0; f < PROF_CAMP_NFN; f++) {
        uint32_t s = addrmap_slice(&b->camp_map[f], line);
        for (int w = 0; w < PROF_CAMP_NWIN; w++)
            b->camp_cnt[f][w][s] += sectors;
    }
}

/* Close the open window of size index w for every slice function. */
static void camp_close(pbuild *b, int w)
{
    for (int f = 0; f < PROF_CAMP_NFN; f++) {
        uint32_t n = camp_counts[f % PROF_CAMP_NCOUNTS];
        double *c = b->camp_cnt[f][w], most = 0, sum = 0;
        for (uint32_t s = 0; s < n; s++) {
            sum += c[s];
            if (c[s] > most)
                most = c[s];
            c[s] = 0;
        }
        b->camp_max[f][w] += most;
        b->camp_mean[f][w] += sum / n;
    }
}

static void camp_cta_done(pbuild *b)
{
    b->camp_ctas++;
    for (int w = 0; w < PROF_CAMP_NWIN; w++)
        if (b->camp_ctas % camp_windows[w] == 0)
            camp_close(b, w);
}

static void camp_finish(pbuild *b)
{
    for (int w = 0; w < PROF_CAMP_NWIN; w++) {
        if (b->camp_ctas % camp_windows[w])
            camp_close(b, w);
        for (int f = 0; f < PROF_CAMP_NFN; f++) {
            b->pk->camp[f][w] = b->camp_mean[f][w] > 0 ? fmax(1, b->camp_max[f][w] / b->camp_mean[f][w]) : 1;
            b->camp_max[f][w] = b->camp_mean[f][w] = 0;
        }
    }
    b->camp_ctas = 0;
}

/* A line of a global atomic: its footprint, and its sectors while it is
 * one of the first PROF_ATOMIC_HOT distinct lines. */
static int atomic_line(pbuild *b, const co_line *ln, ge_err *e)
{
    prof_kernel *pk = b->pk;
    int added = u64set_add(&b->atomic_lines, ln->line, e);
    if (added < 0)
        return -1;
    double sec = __builtin_popcount(ln->sectors);
    if (added && pk->natomic_hot < PROF_ATOMIC_HOT)
        pk->atomic_hot_line[pk->natomic_hot++] = ln->line;
    for (uint32_t i = 0; i < pk->natomic_hot; i++)
        if (pk->atomic_hot_line[i] == ln->line) {
            pk->atomic_hot_sectors[i] += sec;
            pk->atomic_hot_packets[i] += 1;
            break;
        }
    return 0;
}

/* Atomics: the most lanes that hit one address (they serialise). */
static uint32_t atomic_serial(uint32_t mask, const uint64_t *addr)
{
    uint32_t best = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint64_t a = addr[__builtin_ctz(m)];
        uint32_t n = 0;
        for (uint32_t m2 = mask; m2; m2 &= m2 - 1)
            n += addr[__builtin_ctz(m2)] == a;
        if (n > best)
            best = n;
    }
    return best;
}

static int log_l1(pbuild *b, uint64_t line, uint32_t sectors, uint32_t cta, uint32_t seq, uint32_t chunk,
                  uint16_t warp, ge_err *e)
{
    if (ge_reserve((void **)&b->l1, &b->l1_cap, b->nl1 + 1, sizeof *b->l1, e))
        return -1;
    pb_l1rec *r = &b->l1[b->nl1++];
    r->line = line;
    r->cta = cta;
    r->seq = seq;
    r->chunk = chunk;
    r->warp = warp;
    r->kernel = (uint16_t)b->kidx;
    r->sectors = (uint8_t)sectors;
    return 0;
}

static int l2_keep(const pbuild *b, uint64_t line)
{
    return (ge_hash64(line ^ 0xa5a5a5a5ULL) & ((1ULL << b->l2_shift) - 1)) == 0;
}

static int log_l2(pbuild *b, uint64_t line, uint32_t sectors, uint32_t cta, uint32_t seq, uint16_t warp, int store,
                  ge_err *e)
{
    if (!l2_keep(b, line))
        return 0;
    if (b->nl2 >= b->o->l2_log_max) {
        /* halve the sampling rate and drop what no longer passes */
        b->l2_shift++;
        size_t k = 0;
        for (size_t i = 0; i < b->nl2; i++)
            if (l2_keep(b, b->l2[i].line))
                b->l2[k++] = b->l2[i];
        b->nl2 = k;
        if (!l2_keep(b, line))
            return 0;
    }
    if (ge_reserve((void **)&b->l2, &b->l2_cap, b->nl2 + 1, sizeof *b->l2, e))
        return -1;
    pb_l2rec *r = &b->l2[b->nl2++];
    r->line = line;
    r->cta = cta;
    r->seq = seq;
    r->warp = warp;
    r->kernel = (uint16_t)b->kidx;
    r->sectors = (uint8_t)sectors;
    r->store = (uint8_t)(store != 0);
    return 0;
}

static void warp_features(const prof_inst *pi, uint32_t n, double *f)
{
    double mem = 0, lines = 0, sectors = 0, shared = 0, lanes = 0, branch = 0, slow = 0;
    for (uint32_t i = 0; i < n; i++) {
        const isa_op_info *inf = &isa_ops[pi[i].op];
        if (inf->space == ISA_SPACE_GLOBAL || inf->space == ISA_SPACE_LOCAL) {
            mem++;
            lines += pi[i].lines;
            sectors += pi[i].sectors;
        }
        if (inf->space == ISA_SPACE_SHARED)
            shared += pi[i].conflict;
        lanes += pi[i].lanes;
        branch += (inf->flags & ISA_F_BRANCH) != 0;
        slow += inf->unit == ISA_UNIT_SFU || inf->unit == ISA_UNIT_FP64;
    }
    double d = n ? n : 1;
    f[0] = n;
    f[1] = mem / d;
    f[2] = lines / d;
    f[3] = sectors / d;
    f[4] = shared / d;
    f[5] = lanes / d;
    f[6] = branch / d;
    f[7] = slow / d;
}

/* Keep the warp's record in the reservoir (algorithm R). */
static int reservoir_add(pbuild *b, uint32_t n, ge_err *e)
{
    uint64_t seen = b->warps_seen++;
    uint32_t slot;
    if (b->nres < b->o->reservoir_warps) {
        slot = b->nres++;
    } else {
        uint64_t r = pb_rand(&b->rng) % (seen + 1);
        if (r >= b->o->reservoir_warps)
            return 0;
        slot = (uint32_t)r;
        free(b->res[slot].inst);
    }
    prof_inst *copy = ge_malloc(n * sizeof *copy, e);
    if (!copy)
        return -1;
    memcpy(copy, b->wi, n * sizeof *copy);
    b->res[slot].inst = copy;
    b->res[slot].ninst = n;
    warp_features(copy, n, &b->res_feat[(size_t)slot * PB_WARP_FEATURES]);
    return 0;
}

static int walk_warp(pbuild *b, const ws_cta *c, uint32_t w, double *sig, ge_err *e)
{
    prof_kernel *pk = b->pk;
    const ws_inst *in = ws_warp_inst(c, w);
    uint32_t n = c->warps[w].ninst;
    if (ge_reserve((void **)&b->wi, &b->wi_cap, n ? n : 1, sizeof *b->wi, e))
        return -1;
    b->gen++;
    b->pend++;
    uint32_t chunk = 0, cta = (uint32_t)c->index;
    uint64_t cur_code = UINT64_MAX;
    double barriers = 0;
    for (uint32_t i = 0; i < n; i++, in++) {
        isa_op op = (isa_op)in->op;
        const isa_op_info *inf = &isa_ops[op];
        uint32_t lanes = (uint32_t)ws_popc(in->mask);
        prof_inst *pi = &b->wi[i];
        memset(pi, 0, sizeof *pi);
        uint64_t code_line = in->pc / LINE_BYTES;
        int new_line = u64set_add(&b->code, code_line, e);
        if (new_line < 0)
            return -1;
        /* code fetches (prof_inherit.c): the first CTAs' line changes, a later CTA's new lines */
        if (code_line != cur_code && (cta < PB_CODE_CTAS || new_line) && pb_code_touch(b, code_line, i, e))
            return -1;
        cur_code = code_line;
        if (new_line && u64set_has(&b->code_before, code_line) && pk->ncode_warm < PROF_CODE_WARM_MAX) {
            if (ge_reserve((void **)&pk->code_warm, &b->code_warm_cap, pk->ncode_warm + 1, sizeof *pk->code_warm, e))
                return -1;
            pk->code_warm[pk->ncode_warm++] = code_line;
        }
        pi->op = (uint8_t)op;
        pi->lanes = (uint8_t)lanes;
        pk->op_warps[op] += 1;
        pk->reg_reads += in->nsrc;
        pk->reg_writes += in->ndst;
        pk->op_lanes[op] += lanes;
        sig[PROF_SIG_WARP_INSTS] += 1;
        sig[PROF_SIG_LANES] += lanes;
        if (inf->flags & ISA_F_BRANCH)
            sig[PROF_SIG_BRANCHES] += 1;
        if (inf->flags & ISA_F_BARRIER)
            barriers += 1;

        /* dependencies and GTO chunks */
        int nd = 0, waits_load = 0;
        for (int s = 0; s < in->nsrc && s < WS_MAX_SRC; s++) {
            uint16_t r = in->src[s];
            if (b->wgen[r] != b->gen)
                continue;
            uint32_t d = i - b->writer[r];
            if (b->pgen[r] == b->pend)
                waits_load = 1;
            if (d > 0 && d < 65536 && nd < PROF_MAX_DEPS) {
                int dup = 0;
                for (int k = 0; k < nd; k++)
                    dup |= pi->dep[k] == d;
                if (!dup)
                    pi->dep[nd++] = (uint16_t)d;
            }
        }
        if (waits_load) {
            chunk++;
            b->pend++; /* every outstanding load has returned by now */
        }

        const uint64_t *addr = ws_inst_addr(c, in);
        if (addr && inf->space != ISA_SPACE_NONE) {
            if (inf->space == ISA_SPACE_SHARED) {
                uint32_t bc = bank_cycles(in->mask, addr, in->size);
                pi->conflict = (uint8_t)(bc > 255 ? 255 : bc);
                pk->shared_bank_cycles += bc;
                sig[PROF_SIG_SHARED] += 1;
            } else {
                co_line ls[CO_MAX_LINES];
                int nl = co_coalesce(in->mask, addr, in->size, LINE_BYTES, SECTOR_BYTES, ls);
                uint32_t ns = co_sectors(ls, nl);
                pi->lines = (uint8_t)(nl > 255 ? 255 : nl);
                pi->sectors = (uint8_t)(ns > 255 ? 255 : ns);
                pk->op_lines[op] += nl;
                pk->op_sectors[op] += ns;
                int gl = inf->space == ISA_SPACE_GLOBAL || inf->space == ISA_SPACE_LOCAL;
                if (gl) {
                    sig[PROF_SIG_MEM_INSTS] += 1;
                    sig[PROF_SIG_LINES] += nl;
                    sig[PROF_SIG_SECTORS] += ns;
                    int elig = (inf->flags & ISA_F_LOAD) && l1_eligible(b->o, cta);
                    for (int l = 0; l < nl; l++) {
                        int first = u64set_add(&b->lines, ls[l].line, e);
                        if (first < 0)
                            return -1;
                        /* L2 traffic for the camping record: stores as
                         * accessed, loads by a line's first touch (what
                         * misses the L1); atomics have their own bound */
                        if (inf->flags & ISA_F_STORE)
                            camp_add(b, ls[l].line, __builtin_popcount(ls[l].sectors));
                        else if (first && (inf->flags & ISA_F_LOAD))
                            camp_add(b, ls[l].line, 4);
                        if ((inf->flags & (ISA_F_STORE | ISA_F_ATOMIC)) && u64set_add(&b->store_lines, ls[l].line, e) < 0)
                            return -1;
                        for (uint32_t sm = ls[l].sectors; (inf->flags & (ISA_F_STORE | ISA_F_ATOMIC)) && sm; sm &= sm - 1)
                            if (u64set_add(&b->store_sectors, ls[l].line * 4 + (uint64_t)__builtin_ctz(sm), e) < 0)
                                return -1;
                        if ((inf->flags & ISA_F_LOAD) && u64set_add(&b->load_lines, ls[l].line, e) < 0)
                            return -1;
                        for (uint32_t sm = ls[l].sectors; (inf->flags & ISA_F_LOAD) && sm; sm &= sm - 1)
                            if (u64set_add(&b->load_sectors, ls[l].line * 4 + (uint64_t)__builtin_ctz(sm), e) < 0)
                                return -1;
                        if ((inf->flags & ISA_F_ATOMIC) && atomic_line(b, &ls[l], e))
                            return -1;
                        if (elig && log_l1(b, ls[l].line, ls[l].sectors, cta, i, chunk, (uint16_t)w, e))
                            return -1;
                        if (log_l2(b, ls[l].line, ls[l].sectors, cta, i, (uint16_t)w,
                                   (inf->flags & (ISA_F_STORE | ISA_F_ATOMIC)) != 0, e))
                            return -1;
                    }
                }
                if (inf->flags & ISA_F_ATOMIC) {
                    sig[PROF_SIG_ATOMICS] += 1;
                    pk->atomic_addr_serial += atomic_serial(in->mask, addr);
                }
            }
        }
        int is_load = (inf->flags & (ISA_F_LOAD | ISA_F_ATOMIC)) &&
                      (inf->space == ISA_SPACE_GLOBAL || inf->space == ISA_SPACE_LOCAL || inf->space == ISA_SPACE_TEX);
        for (int d = 0; d < in->ndst && d < WS_MAX_DST; d++) {
            uint16_t r = in->dst[d];
            b->writer[r] = i;
            b->wgen[r] = b->gen;
            if (is_load)
                b->pgen[r] = b->pend;
        }
    }
    pk->barriers_per_warp += barriers; /* normalised at the end of the kernel */
    pk->warp_insts += n;
    for (uint32_t i = 0; i < n; i++)
        pk->thread_insts += b->wi[i].lanes;
    return reservoir_add(b, n, e);
}

/* Is CTA `index` a candidate: in one of the runs at a fixed stride? */
static int is_candidate(const prof_options *o, uint64_t nctas, uint64_t index)
{
    uint64_t run = o->run ? o->run : 1;
    uint64_t runs = o->candidates / run ? o->candidates / run : 1;
    uint64_t stride = nctas > runs * run ? nctas / runs : run;
    return index % stride < run && index / stride < runs;
}

static int keep_candidate(pbuild *b, const ws_cta *c, ge_err *e)
{
    const prof_options *o = b->o;
    uint64_t nctas = b->pk->nctas;
    size_t bytes = cta_bytes(c);
    if (b->keeping_all && b->kept_bytes + bytes > o->keep_all_bytes) {
        /* too big to keep everything: thin to the systematic candidates */
        b->keeping_all = 0;
        uint32_t k = 0;
        b->kept_bytes = 0;
        for (uint32_t i = 0; i < b->ncand; i++) {
            if (is_candidate(o, nctas, b->cand_index[i]) && k < o->candidates) {
                ws_cta t = b->cand[k];
                b->cand[k] = b->cand[i];
                b->cand[i] = t;
                b->cand_index[k] = b->cand_index[i];
                b->kept_bytes += cta_bytes(&b->cand[k]);
                k++;
            }
        }
        for (uint32_t i = k; i < b->ncand; i++)
            ws_cta_free(&b->cand[i]);
        b->ncand = k;
    }
    if (!b->keeping_all && (!is_candidate(o, nctas, c->index) || b->ncand >= o->candidates))
        return 0;
    if (b->ncand == b->cand_cap) {
        uint32_t ncap = b->cand_cap ? b->cand_cap * 2 : 64;
        ws_cta *nc = realloc(b->cand, ncap * sizeof *nc);
        uint64_t *ni = nc ? realloc(b->cand_index, ncap * sizeof *ni) : NULL;
        if (!nc || !ni) {
            if (nc)
                b->cand = nc;
            return ge_errf(e, "out of memory (candidate CTAs)");
        }
        b->cand = nc;
        b->cand_index = ni;
        for (uint32_t i = b->cand_cap; i < ncap; i++)
            ws_cta_init(&b->cand[i]);
        b->cand_cap = ncap;
    }
    if (ws_cta_copy(&b->cand[b->ncand], c, e))
        return -1;
    b->cand_index[b->ncand++] = c->index;
    b->kept_bytes += bytes;
    return 0;
}

static int walk_cta(pbuild *b, const ws_cta *c, ge_err *e)
{
    if (ge_reserve((void **)&b->sig, &b->sig_cap, (b->nsig + 1) * PROF_SIG_COUNT, sizeof *b->sig, e))
        return -1;
    size_t cap = b->sig_cap / PROF_SIG_COUNT; /* sig_index grows in step */
    void *ni = realloc(b->sig_index, (cap ? cap : 1) * sizeof *b->sig_index);
    if (!ni)
        return ge_errf(e, "out of memory (CTA signatures)");
    b->sig_index = ni;
    double *sig = &b->sig[b->nsig * PROF_SIG_COUNT];
    memset(sig, 0, PROF_SIG_COUNT * sizeof *sig);
    b->sig_index[b->nsig++] = c->index;
    if (c->index >= UINT32_MAX)
        return ge_errf(e, "kernel %s: CTA index %llu too large", b->pk->name, (unsigned long long)c->index);
    for (uint32_t w = 0; w < c->nwarps; w++)
        if (walk_warp(b, c, w, sig, e))
            return -1;
    if (pb_code_cta_done(b, (uint32_t)c->index, e))
        return -1;
    camp_cta_done(b);
    return keep_candidate(b, c, e);
}

static int begin_kernel(pbuild *b, const ws_kernel *k, ge_err *e)
{
    profile *p = b->p;
    if (p->nkernels >= 65535)
        return ge_errf(e, "more than 65535 kernels");
    prof_kernel *nk = realloc(p->k, (p->nkernels + 1) * sizeof *nk);
    if (!nk)
        return ge_errf(e, "out of memory (kernels)");
    p->k = nk;
    b->kidx = p->nkernels++;
    b->pk = &p->k[b->kidx];
    prof_kernel *pk = b->pk;
    memset(pk, 0, sizeof *pk);
    snprintf(pk->name, sizeof pk->name, "%s", k->name ? k->name : "kernel");
    memcpy(pk->grid, k->grid, sizeof pk->grid);
    memcpy(pk->block, k->block, sizeof pk->block);
    pk->nregs = k->nregs;
    pk->shmem_static = k->shmem_static;
    pk->shmem_dynamic = k->shmem_dynamic;
    pk->binary_version = k->binary_version;
    pk->nctas = ws_kernel_nctas(k);
    pk->warps_per_cta = ws_kernel_warps_per_cta(k);
    b->nsig = 0;
    for (uint32_t i = 0; i < b->nres; i++) { /* the previous kernel's unchosen warps */
        free(b->res[i].inst);
        b->res[i].inst = NULL;
    }
    b->nres = 0;
    b->warps_seen = 0;
    b->ncand = 0;
    b->kept_bytes = 0;
    b->keeping_all = 1;
    u64set_clear(&b->lines);
    u64set_clear(&b->store_lines);
    u64set_clear(&b->store_sectors);
    u64set_clear(&b->load_lines);
    u64set_clear(&b->load_sectors);
    u64set_clear(&b->atomic_lines);
    b->code_warm_cap = 0;
    if (pb_code_kernel(b, e))
        return -1;
    /* the previous kernel's code joins what later kernels find fetched */
    uint64_t line;
    for (size_t i = 0; i < b->code.cap; i++)
        if (u64set_at(&b->code, i, &line) && u64set_add(&b->code_before, line, e) < 0)
            return -1;
    u64set_clear(&b->code);
    return 0;
}

/* Copy the kernel's mnemonic table into the profile's shared table and remap
 * the candidate CTAs' opcode indices to it. */
static int merge_opcodes(pbuild *b, const ws_kernel *k, ge_err *e)
{
    profile *p = b->p;
    uint16_t map[65536];
    /* A trace source discovers mnemonics while its CTAs are read, so the
     * event's count may be short of the indices handed out since; the table
     * itself stays valid (wstream.h). */
    uint32_t nop = k->nopcodes;
    for (uint32_t c = 0; c < b->ncand; c++)
        for (size_t i = 0; i < b->cand[c].ninst; i++)
            if (b->cand[c].inst[i].opcode >= nop)
                nop = b->cand[c].inst[i].opcode + 1u;
    if (!k->opcodes)
        nop = 0;
    for (uint32_t i = 0; i < nop; i++) {
        const char *s = k->opcodes[i] ? k->opcodes[i] : "?";
        uint32_t j = 0;
        while (j < p->nopcodes && strcmp(p->opcodes[j], s) != 0)
            j++;
        if (j == p->nopcodes) {
            if (p->nopcodes >= 65535)
                return ge_errf(e, "too many distinct mnemonics");
            char **no = realloc(p->opcodes, (p->nopcodes + 1) * sizeof *no);
            if (!no)
                return ge_errf(e, "out of memory");
            p->opcodes = no;
            size_t len = strlen(s) + 1;
            if (!(p->opcodes[p->nopcodes] = malloc(len)))
                return ge_errf(e, "out of memory");
            memcpy(p->opcodes[p->nopcodes++], s, len);
        }
        map[i] = (uint16_t)j;
    }
    for (uint32_t c = 0; c < b->ncand; c++)
        for (size_t i = 0; i < b->cand[c].ninst; i++) {
            ws_inst *in = &b->cand[c].inst[i];
            in->opcode = in->opcode < nop ? map[in->opcode] : 0;
        }
    return 0;
}

static void pb_free(pbuild *b)
{
    free(b->sig);
    free(b->sig_index);
    for (uint32_t i = 0; i < b->nres; i++)
        free(b->res[i].inst);
    free(b->res);
    free(b->res_feat);
    for (uint32_t i = 0; i < b->cand_cap; i++)
        ws_cta_free(&b->cand[i]);
    free(b->cand);
    free(b->cand_index);
    free(b->l1);
    free(b->l2);
    free(b->cf);
    free(b->cf_first);
    free(b->cta_code);
    for (int j = 0; j < PROF_NCONC; j++)
        free(b->gpu_ord[j]);
    u64set_free(&b->lines);
    u64set_free(&b->store_lines);
    u64set_free(&b->store_sectors);
    u64set_free(&b->load_lines);
    u64set_free(&b->load_sectors);
    u64set_free(&b->atomic_lines);
    u64set_free(&b->code);
    u64set_free(&b->code_before);
    camp_free(b);
    free(b->writer);
    free(b->wgen);
    free(b->pgen);
    free(b->wi);
}

int prof_build(ws_source *src, const prof_options *o, const char *source, uint32_t size, uint64_t seed,
               profile *out, ge_err *e)
{
    prof_init(out);
    snprintf(out->source, sizeof out->source, "%s", source ? source : "");
    out->size = size;
    out->seed = seed;
    pbuild b;
    memset(&b, 0, sizeof b);
    b.o = o;
    b.p = out;
    b.rng = o->seed;
    u64set_init(&b.lines);
    u64set_init(&b.store_lines);
    u64set_init(&b.store_sectors);
    u64set_init(&b.load_lines);
    u64set_init(&b.load_sectors);
    u64set_init(&b.atomic_lines);
    u64set_init(&b.code);
    u64set_init(&b.code_before);
    b.writer = calloc(PB_REGS, sizeof *b.writer);
    b.wgen = calloc(PB_REGS, sizeof *b.wgen);
    b.pgen = calloc(PB_REGS, sizeof *b.pgen);
    b.res = calloc(o->reservoir_warps ? o->reservoir_warps : 1, sizeof *b.res);
    b.res_feat = calloc((size_t)(o->reservoir_warps ? o->reservoir_warps : 1) * PB_WARP_FEATURES, sizeof(double));
    ws_cta cta;
    ws_cta_init(&cta);
    int rc = 0;
    if (!b.writer || !b.wgen || !b.pgen || !b.res || !b.res_feat || camp_init(&b)) {
        rc = ge_errf(e, "out of memory (profiler)");
        goto done;
    }
    ws_event ev;
    int r;
    int in_kernel = 0;
    ws_kernel cur;
    while ((r = ws_next_event(src, &ev, e)) > 0) {
        if (ev.kind != WS_EV_KERNEL)
            continue;
        cur = ev.kernel;
        if (begin_kernel(&b, &cur, e)) {
            rc = -1;
            goto done;
        }
        in_kernel = 1;
        int cr;
        while ((cr = ws_next_cta(src, &cta, e)) > 0)
            if (walk_cta(&b, &cta, e)) {
                rc = -1;
                goto done;
            }
        if (cr == 0)
            camp_finish(&b);
        if (cr < 0 || merge_opcodes(&b, &cur, e) || pb_finish_kernel(&b, e)) {
            rc = -1;
            goto done;
        }
    }
    if (r < 0) {
        rc = -1;
        goto done;
    }
    (void)in_kernel;
    rc = pb_gpu_orders(&b, e) || pb_reuse(&b, e) || pb_inherit(&b, e) ? -1 : 0;
    out->has_ctas = 1;
done:
    ws_cta_free(&cta);
    pb_free(&b);
    if (rc)
        prof_free(out);
    return rc;
}
