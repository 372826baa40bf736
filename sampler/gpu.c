/*
 * gpu.c - the simulator's top level: creation, the clock loop, and runs
 * over a whole stream.
 *
 * One loop drives the GPU.  At each visited core cycle `now`:
 *   1. emit power-trace windows that ended (stats.c);
 *   2. advance the memory system through now (mem.h);
 *   3. place CTAs on SMs with free slots (cta_sched.c);
 *   4. step every SM that is due: its wake cycle has come, a memory
 *      completion for it is ready (probed with one pop), or its LSU frees;
 *      an SM that is not due only lets its LSU offer a line (sm.c, ldst.c).
 *      An LSU whose offer the memory refused with a key (mem.h refusal_key)
 *      is not due again until the memory system pokes its SM (mem.h poked);
 *      the retries it sleeps through are counted when it next offers.
 * Then it jumps to the earliest cycle at which anything can happen: the
 * minimum over the SMs' wake cycles and the memory system's next event.
 * Cycles in between are never touched (the SM-side CPI stack charges them
 * lazily to the category they would all have had), which is what makes
 * latency-bound phases cheap.  Skipping is exact: with opt.no_skip every
 * cycle is visited and the results are identical, which a test checks.
 *
 * The clock runs for the sim_gpu's life: kernel k+1 starts the cycle after
 * kernel k's last visited cycle, so the memory system sees one increasing
 * time; a kernel's cycles run from its first cycle to the cycle after its
 * last CTA retired.
 */
#include <stdlib.h>
#include <string.h>

#include "sm.h"
#include "u64set.h"

static int opt_err(ge_err *e, const char *what, const char *name, void (*names)(char *, size_t))
{
    char buf[256];
    names(buf, sizeof buf);
    return ge_errf(e, "%s: unknown policy '%s' (known: %s)", what, name, buf);
}

/* Limits of this implementation, checked before anything runs. */
static int check_limits(const gpu_config *c, const sim_options *o, ge_err *e)
{
    if (c->sm.schedulers > SIM_MAX_SCHEDULERS)
        return ge_errf(e, "sm.schedulers: %u exceeds the simulator's limit of %d", c->sm.schedulers,
                       SIM_MAX_SCHEDULERS);
    uint32_t per = (c->sm.max_warps + c->sm.schedulers - 1) / c->sm.schedulers;
    if (per > SIM_SCHED_MAX_WARPS)
        return ge_errf(e, "sm.max_warps: %u warps over %u schedulers exceed the simulator's %d warps per scheduler",
                       c->sm.max_warps, c->sm.schedulers, SIM_SCHED_MAX_WARPS);
    if (c->sm.rf_banks < c->sm.schedulers)
        return ge_errf(e, "sm.rf_banks: %u banks for %u schedulers (need at least one each)", c->sm.rf_banks,
                       c->sm.schedulers);
    if (c->sm.ibuffer_entries > 255)
        return ge_errf(e, "sm.ibuffer_entries: at most 255");
    if (!c->l1d.line_bytes || !c->l1d.sector_bytes || c->l1d.line_bytes & (c->l1d.line_bytes - 1) ||
        c->l1d.sector_bytes & (c->l1d.sector_bytes - 1) || c->l1d.sector_bytes > c->l1d.line_bytes ||
        c->l1d.line_bytes / c->l1d.sector_bytes > 32)
        return ge_errf(e, "l1d.line_bytes: the coalescer needs power-of-two line and sector sizes "
                          "(sector <= line, at most 32 sectors), got %u/%u",
                       c->l1d.line_bytes, c->l1d.sector_bytes);
    if (!c->l1i.sets || !c->l1i.ways || !c->l1i.line_bytes)
        return ge_errf(e, "l1i.size_bytes: the instruction cache must be present");
    if (o->active_sms > c->gpu.sm_count)
        return ge_errf(e, "active_sms: %u exceeds gpu.sm_count %u", o->active_sms, c->gpu.sm_count);
    if (o->interval_cycles && !o->on_interval)
        return ge_errf(e, "interval_cycles: set without an on_interval callback");
    return 0;
}

static int sm_init(sim_gpu *g, sim_sm *sm, uint32_t id, ge_err *e)
{
    const gpu_config *c = &g->cfg;
    sm->id = id;
    sm->nsched = g->nsched;
    sm->warp = ge_calloc(c->sm.max_warps, sizeof *sm->warp, e);
    sm->simt_state = ge_calloc(c->sm.max_warps, g->simt->warp_state_bytes ? g->simt->warp_state_bytes : 1, e);
    sm->ib_store = ge_calloc((size_t)c->sm.max_warps * g->ib_cap, sizeof *sm->ib_store, e);
    sm->sb_store = ge_calloc((size_t)c->sm.max_warps * SIM_SB_ENTRIES, sizeof *sm->sb_store, e);
    sm->nrec = c->sm.max_warps * SIM_SB_ENTRIES;
    sm->rec = ge_calloc(sm->nrec, sizeof *sm->rec, e);
    if (!sm->warp || !sm->simt_state || !sm->ib_store || !sm->sb_store || !sm->rec)
        return -1;
    for (uint32_t w = 0; w < c->sm.max_warps; w++) {
        sm->warp[w].ib = sm->ib_store + (size_t)w * g->ib_cap;
        sm->warp[w].sb = sm->sb_store + (size_t)w * SIM_SB_ENTRIES;
        sm->warp[w].simt = sm->simt_state + (size_t)w * g->simt->warp_state_bytes;
    }
    sm->fetch_words = (c->sm.max_warps + 63) / 64;
    for (uint32_t s = 0; s < g->nsched; s++) {
        sim_sched_unit *su = &sm->sched[s];
        su->pol = ge_calloc(1, g->sched->state_bytes ? g->sched->state_bytes : 1, e);
        su->bank_free = ge_calloc(g->rf_banks_per_sched, sizeof *su->bank_free, e);
        if (!su->pol || !su->bank_free)
            return -1;
    }
    if (sim_units_init(g, sm, e) || sim_icache_init(g, &sm->ic, e) || sim_cta_init(g, sm, e) ||
        sim_ldst_init(sm, e))
        return -1;
    return 0;
}

static void sm_free(sim_gpu *g, sim_sm *sm)
{
    free(sm->warp);
    free(sm->simt_state);
    free(sm->ib_store);
    free(sm->sb_store);
    free(sm->rec);
    for (uint32_t s = 0; s < g->nsched; s++) {
        free(sm->sched[s].pol);
        free(sm->sched[s].bank_free);
    }
    sim_units_free(sm);
    sim_icache_free(&sm->ic);
    sim_cta_free_all(sm);
}

/* Set up SMs sm_ready..n-1. */
static int sms_ready(sim_gpu *g, uint32_t n, ge_err *e)
{
    for (; g->sm_ready < n; g->sm_ready++)
        if (sm_init(g, &g->sm[g->sm_ready], g->sm_ready, e))
            return -1;
    return 0;
}

sim_gpu *sim_create(const gpu_config *cfg, const sim_options *o, ge_err *e)
{
    static const sim_options defaults = {0};
    if (!o)
        o = &defaults;
    if (gcfg_validate(cfg, e) || check_limits(cfg, o, e))
        return NULL;
    const char *sname = o->scheduler ? o->scheduler : cfg->sm.scheduler;
    const sim_sched_ops *sched = sim_sched_find(sname);
    if (!sched) {
        opt_err(e, o->scheduler ? "scheduler" : "sm.scheduler", sname, sim_scheduler_names);
        return NULL;
    }
    const sim_simt_ops *simt = sim_simt_find(cfg->sm.divergence);
    if (!simt) {
        opt_err(e, "sm.divergence", cfg->sm.divergence, sim_divergence_names);
        return NULL;
    }
    sim_gpu *g = ge_calloc(1, sizeof *g, e);
    if (!g)
        return NULL;
    g->cfg = *cfg;
    g->opt = *o;
    g->sched = sched;
    g->simt = simt;
    g->nsms = o->active_sms ? o->active_sms : cfg->gpu.sm_count;
    g->nsched = cfg->sm.schedulers;
    g->wpsched = (cfg->sm.max_warps + g->nsched - 1) / g->nsched;
    g->ib_cap = cfg->sm.ibuffer_entries;
    g->rf_banks_per_sched = cfg->sm.rf_banks / cfg->sm.schedulers;
    sim_decode_table(g);
    sim_mem_options mo = {.active_sms = o->active_sms,
                          .background = o->background,
                          .shared_line = o->shared_line,
                          .shared_ctx = o->shared_ctx};
    g->mem = sim_mem_create(o->mem_model ? o->mem_model : "detailed", cfg, &mo, e);
    if (!g->mem) {
        free(g);
        return NULL;
    }
    g->opt.mem_model = g->mem->ops->name;
    g->opt.scheduler = sched->name;
    /* Only the simulated SMs get their state; sim_set_sampling sets up
     * more when asked. */
    g->sm = ge_calloc(cfg->gpu.sm_count, sizeof *g->sm, e);
    g->occupied = ge_calloc((cfg->gpu.sm_count + 63) / 64, sizeof *g->occupied, e);
    g->sm_due = ge_calloc(cfg->gpu.sm_count, sizeof *g->sm_due, e);
    if (!g->sm || !g->occupied || !g->sm_due || sms_ready(g, g->nsms, e)) {
        sim_destroy(g);
        return NULL;
    }
    g->detail.limiter = "";
    return g;
}

void sim_destroy(sim_gpu *g)
{
    if (!g)
        return;
    if (g->sm) /* the SMs set up, and one whose set-up failed half way */
        for (uint32_t s = 0; s <= g->sm_ready && s < g->cfg.gpu.sm_count; s++)
            sm_free(g, &g->sm[s]);
    free(g->sm);
    free(g->occupied);
    free(g->sm_due);
    if (g->mem)
        g->mem->ops->destroy(g->mem);
    free(g->cta_stat);
    free(g);
}

const sim_detail *sim_last_detail(const sim_gpu *g) { return &g->detail; }

int sim_set_sampling(sim_gpu *g, uint32_t active_sms, int background, ge_err *e)
{
    if (active_sms > g->cfg.gpu.sm_count)
        return ge_errf(e, "active_sms: %u exceeds gpu.sm_count %u", active_sms, g->cfg.gpu.sm_count);
    if (!g->mem->ops->set_sampling)
        return ge_errf(e, "memory model '%s' cannot change its sampling between kernels", g->mem->ops->name);
    sim_mem_options mo = {.active_sms = active_sms,
                          .background = background,
                          .shared_line = g->opt.shared_line,
                          .shared_ctx = g->opt.shared_ctx};
    if (sms_ready(g, active_sms ? active_sms : g->cfg.gpu.sm_count, e) || g->mem->ops->set_sampling(g->mem, &mo, e))
        return -1;
    g->opt.active_sms = active_sms;
    g->opt.background = background;
    g->nsms = active_sms ? active_sms : g->cfg.gpu.sm_count;
    return 0;
}

size_t sim_l2_preload(sim_gpu *g, const uint64_t *lines, const uint8_t *sectors, size_t n)
{
    if (!g->mem->ops->preload || g->cfg.l1d.line_bytes != 128)
        return 0;
    return g->mem->ops->preload(g->mem, lines, sectors, n);
}

void sim_l2_flush(sim_gpu *g)
{
    if (g->mem->ops->l2_flush)
        g->mem->ops->l2_flush(g->mem);
}

void sim_idle(sim_gpu *g, uint64_t cycles) { g->now += cycles; }

size_t sim_l2_preload_code(sim_gpu *g, const ws_kernel *k, const ws_cta *const *ctas, size_t n,
                           const uint64_t *pc_lines, size_t npc)
{
    uint32_t num, den, l1i = g->cfg.l1i.line_bytes, l1d = g->cfg.l1d.line_bytes;
    gcfg_code_scale(&g->cfg, k->binary_version, &num, &den);
    uint32_t parts = l1i > l1d ? l1i / l1d : 1;
    size_t cnt = 0, cap = 0, got = 0;
    uint64_t *lines = NULL;
    uint64_t last = UINT64_MAX;
    for (size_t c = 0; c < n; c++)
        for (size_t i = 0; i < ctas[c]->ninst; i++) {
            uint64_t l1i_line = ctas[c]->inst[i].pc * num / den / l1i;
            if (l1i_line == last) /* straight-line code: mostly the line before */
                continue;
            uint64_t pc_line = ctas[c]->inst[i].pc / 128;
            if (pc_lines && !bsearch(&pc_line, pc_lines, npc, sizeof *pc_lines, u64_cmp))
                continue;
            last = l1i_line;
            for (uint32_t part = 0; part < parts; part++) {
                if (ge_reserve((void **)&lines, &cap, cnt + 1, sizeof *lines, NULL)) {
                    free(lines); /* warming is best effort */
                    return 0;
                }
                lines[cnt++] = (SIM_CODE_BASE + l1i_line * l1i + (uint64_t)part * l1d) / l1d;
            }
        }
    if (cnt > 1)
        qsort(lines, cnt, sizeof *lines, u64_cmp);
    uint8_t all = 0xf;
    for (size_t i = 0; i < cnt; i++)
        if (i == 0 || lines[i] != lines[i - 1])
            got += sim_l2_preload(g, &lines[i], &all, 1);
    free(lines);
    return got;
}

static void kernel_reset(sim_gpu *g)
{
    for (uint32_t s = 0; s < g->nsms; s++) {
        sim_sm *sm = &g->sm[s];
        sm->wake = SIM_NEVER;
        g->sm_due[s] = 0;
        sm->fetch_ptr = 0;
        sim_icache_flush(&sm->ic);
        for (uint32_t i = 0; i < g->nsched; i++) {
            sim_sched_unit *su = &sm->sched[i];
            memset(su->pol, 0, g->sched->state_bytes);
            g->sched->init(su->pol);
            su->acct = g->kstart;
            su->last_cat = KR_IDLE;
            su->last_lsu = 0;
        }
    }
}

/* What the resident warps wait for, for the deadlock message. */
static int deadlock(sim_gpu *g, uint64_t now, ge_err *e)
{
    uint32_t bar = 0, fence = 0, load = 0, fetch = 0, other = 0, lsu = 0;
    uint64_t out = 0;
    for (uint32_t s = 0; s < g->nsms; s++) {
        sim_sm *sm = &g->sm[s];
        out += sm->loads_out;
        lsu += sm->lsu.next < sm->lsu.n;
        for (uint32_t w = 0; w < g->cfg.sm.max_warps; w++) {
            const sim_warp *wp = &sm->warp[w];
            if (wp->state == SIM_W_FREE || wp->state == SIM_W_DONE)
                continue;
            if (wp->state == SIM_W_BAR)
                bar++;
            else if (wp->state == SIM_W_FENCE)
                fence++;
            else if (wp->loads)
                load++;
            else if (wp->ib_n == 0)
                fetch++;
            else
                other++;
        }
    }
    return ge_errf(e,
                   "kernel %s: deadlock at cycle %llu: no warp can ever issue (%llu CTAs resident; warps at a "
                   "barrier %u, at a fence %u, waiting for loads %u, for instructions %u, other %u; "
                   "%llu memory completions outstanding, %u LSUs busy)",
                   g->k->name, (unsigned long long)(now - g->kstart), (unsigned long long)g->resident_ctas, bar,
                   fence, load, fetch, other, (unsigned long long)out, lsu);
}

/* The next cycle the LSU needs its SM visited: never while it holds a
 * refusal that nothing has lifted since (the memory system pokes the SM
 * when something on its side may have lifted it, mem.h poked; anything the
 * SM's own visit did is seen here, at its end). */
static uint64_t lsu_due(const sim_gpu *g, const sim_sm *sm, uint64_t now)
{
    if (sm->lsu.held && g->mem->poked && g->mem->ops->refusal_key(g->mem, (int)sm->id) == sm->lsu.held)
        return SIM_NEVER;
    return sim_ldst_next(sm, now);
}

int sim_kernel(sim_gpu *g, const ws_kernel *k, sim_cta_feed *feed, kresult *r, ge_err *e)
{
    if (occ_compute(&g->cfg, k, &g->occ, e))
        return -1;
    g->k = k;
    gcfg_code_scale(&g->cfg, k->binary_version, &g->pc_num, &g->pc_den);
    g->kstart = g->now;
    g->resident_ctas = 0;
    g->last_retire = g->kstart;
    g->slot_freed = 0;
    sim_stats_kernel_begin(g);
    g->mem->ops->kernel_boundary(g->mem);
    kernel_reset(g);

    uint64_t now = g->kstart, mem_next = 0;
    int exhausted = 0, fill = 1;
    for (;;) {
        if (sim_stats_windows(g, now, 0, e))
            return -1;
        g->mem->ops->cycle(g->mem, now);
        int mem_event = mem_next <= now;
        if (fill && !exhausted) {
            g->slot_freed = 0;
            if (sim_cta_fill(g, feed, now, &exhausted, e) < 0)
                return -1;
        }
        uint64_t next = SIM_NEVER;
        /* the SMs with resident CTAs, in order (CTAs arrive only in
         * sim_cta_fill above, so a word's bits can only clear meanwhile) */
        for (uint32_t wd = 0, bits_at = 0; wd < (g->nsms + 63) / 64; wd++, bits_at += 64) {
            /* SMs the memory system poked (mem.h; only its cycle() pokes, so
             * all of them are taken here: each occupied one is visited) */
            uint64_t poked = sim_mem_take_pokes(g->mem, wd);
            for (uint64_t bits = g->occupied[wd]; bits; bits &= bits - 1) {
                uint32_t s = bits_at + (uint32_t)__builtin_ctzll(bits);
                /* Nothing to do before its due time and no reply due: what
                 * the visit below would find, read from the compact array
                 * (an SM's state spans many host cache lines). */
                uint64_t due = g->sm_due[s];
                if (due > now && !g->opt.no_skip && !(mem_event && sim_mem_pop_due(g->mem, (int)s, now)) &&
                    !(poked >> (s & 63) & 1)) {
                    if (due < next)
                        next = due;
                    continue;
                }
                sim_sm *sm = &g->sm[s];
                if (!sm->ctas) {
                    g->sm_due[s] = SIM_NEVER;
                    continue;
                }
                uint32_t token;
                if (g->opt.no_skip || sm->wake <= now) {
                    sm->wake = sim_sm_cycle(g, sm, now);
                } else {
                    /* A sleeping SM wakes only for a load or fetch that
                     * completes or its LSU freeing; otherwise just its LSU
                     * works this cycle.  A line of a load whose other lines
                     * are still out changes nothing a step looks at. */
                    int wake = 0;
                    while (mem_event && sm->loads_out && sim_mem_pop_due(g->mem, (int)sm->id, now) &&
                           g->mem->ops->pop(g->mem, (int)sm->id, now, &token))
                        wake |= sim_ldst_complete(g, sm, token, now);
                    if (!wake && sim_ldst_next(sm, now - 1) <= now)
                        wake = sim_ldst_offer(g, sm, now);
                    if (wake)
                        sm->wake = sim_sm_cycle(g, sm, now);
                }
                due = SIM_NEVER;
                if (sm->ctas) {
                    uint64_t l = lsu_due(g, sm, now);
                    due = sm->wake < l ? sm->wake : l;
                    if (due < next)
                        next = due;
                }
                g->sm_due[s] = due;
            }
        }
        if (exhausted && g->resident_ctas == 0)
            break;
        fill = g->slot_freed || g->resident_ctas == 0;
        if (fill && !exhausted)
            next = now + 1;
        mem_next = g->mem->ops->next_event(g->mem, now);
        if (mem_next < next)
            next = mem_next;
        if (next == SIM_NEVER)
            return deadlock(g, now, e);
        now = g->opt.no_skip || next <= now ? now + 1 : next;
    }
    uint64_t end = g->last_retire;
    for (uint32_t s = 0; s < g->nsms; s++)
        sim_sm_account(g, &g->sm[s], end);
    if (sim_stats_windows(g, end, 1, e))
        return -1;
    sim_stats_kernel_end(g, end, r);
    g->now = now + 1;
    return 0;
}

static int feed_source(void *ctx, ws_cta *cta, ge_err *e) { return ws_next_cta((ws_source *)ctx, cta, e); }

int sim_run_source(sim_gpu *g, ws_source *src, kresult **res, size_t *n, ge_err *e)
{
    *res = NULL;
    *n = 0;
    size_t cap = 0;
    ws_event ev;
    int rc;
    sim_cta_feed feed = {feed_source, src, NULL};
    while ((rc = ws_next_event(src, &ev, e)) > 0) {
        if (ev.kind != WS_EV_KERNEL)
            continue;
        if (ge_reserve((void **)res, &cap, *n + 1, sizeof **res, e))
            return -1;
        if (sim_kernel(g, &ev.kernel, &feed, &(*res)[*n], e))
            return -1;
        (*n)++;
    }
    return rc < 0 ? -1 : 0;
}
