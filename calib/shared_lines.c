/*
 * shared_lines.c - the lines of a kernel that many SMs touch, found in the
 * profile's sample CTAs.
 *
 * The background run replays each request of the sampled SM on a few
 * weighted mirrors (sampler/mem_detailed.c).  A mirror's copy goes to a
 * private shifted line, as another SM's own data would -- unless the line is
 * one the other SMs touch too: then the copy goes to the same line, so the
 * sample hits on what the other SMs brought into the L2 (and private copies
 * do not take capacity that one shared line takes on a GPU).  spmv_csr's
 * gathers from x are the typical case: every row reads x at random columns.
 *
 * The profile's sample is made of runs of consecutive CTAs spread over the
 * grid (model/prof_select.c), and on a GPU the runs run on different SMs.
 * A global line that CTAs of two or more runs touch is counted as shared.
 * Lines shared only within a run (a stencil's halo between neighbours) stay
 * private: two or three SMs touch them, not all.
 */
#include "estimate_int.h"

#include "coalesce.h"
#include "isa.h"

/* Add the global lines (of line_bytes) that CTA c touches to `run`. */
static int add_cta_lines(const ws_cta *c, uint32_t line_bytes, u64set *run, ge_err *e)
{
    for (size_t i = 0; i < c->ninst; i++) {
        const ws_inst *in = &c->inst[i];
        if (isa_ops[in->op].space != ISA_SPACE_GLOBAL || isa_ops[in->op].flags & ISA_F_ATOMIC)
            continue;
        const uint64_t *addr = ws_inst_addr(c, in);
        if (!addr)
            continue;
        co_line ls[CO_MAX_LINES];
        int nl = co_coalesce(in->mask, addr, in->size, line_bytes, line_bytes, ls);
        for (int l = 0; l < nl; l++)
            if (u64set_add(run, ls[l].line, e) < 0)
                return -1;
    }
    return 0;
}

int est_shared_lines(const gpu_config *cfg, const prof_kernel *pk, u64set *shared, ge_err *e)
{
    u64set seen, run;
    u64set_init(&seen);
    u64set_init(&run);
    u64set_clear(shared);
    int rc = 0;
    for (uint32_t i = 0; i < pk->nsample && rc == 0; i++) {
        rc = add_cta_lines(&pk->sample[i], cfg->l1d.line_bytes, &run, e);
        int last = i + 1 == pk->nsample || pk->sample_index[i + 1] != pk->sample_index[i] + 1;
        if (rc || !last)
            continue;
        /* the end of a run: its lines that an earlier run touched are shared */
        for (size_t s = 0; s < run.cap && rc == 0; s++) {
            uint64_t line;
            if (!u64set_at(&run, s, &line))
                continue;
            int fresh = u64set_add(&seen, line, e);
            if (fresh == 0)
                fresh = u64set_add(shared, line, e) < 0 ? -1 : 1;
            rc = fresh < 0 ? -1 : 0;
        }
        u64set_clear(&run);
    }
    u64set_free(&seen);
    u64set_free(&run);
    return rc;
}
