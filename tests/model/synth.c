#include "synth.h"

#include <stdlib.h>
#include <string.h>

static const char *const synth_opcodes[] = {"OP"};

static int s_next_event(ws_source *src, ws_event *ev, ge_err *e)
{
    (void)e;
    synth_source *s = (synth_source *)src;
    if (s->launched >= s->launches)
        return 0;
    s->stage = 1;
    s->next = 0;
    memset(ev, 0, sizeof *ev);
    ev->kind = WS_EV_KERNEL;
    ev->kernel = s->k;
    ev->kernel.id = ++s->launched;
    return 1;
}

static int s_next_cta(ws_source *src, ws_cta *cta, ge_err *e)
{
    synth_source *s = (synth_source *)src;
    if (s->stage != 1 || s->next >= s->nctas)
        return 0;
    if (ws_cta_copy(cta, &s->ctas[s->next++], e))
        return -1;
    return 1;
}

static void s_close(ws_source *src) { (void)src; }

static const ws_source_ops synth_ops = {"synth", s_next_event, s_next_cta, NULL, s_close};

void synth_init(synth_source *s, const char *name, uint32_t nctas, uint32_t threads, uint32_t nregs)
{
    memset(s, 0, sizeof *s);
    s->base.ops = &synth_ops;
    s->k.name = name;
    s->k.id = 1;
    s->launches = 1;
    s->k.grid[0] = nctas;
    s->k.grid[1] = s->k.grid[2] = 1;
    s->k.block[0] = threads;
    s->k.block[1] = s->k.block[2] = 1;
    s->k.nregs = nregs;
    s->k.binary_version = 70;
    s->k.opcodes = synth_opcodes;
    s->k.nopcodes = 1;
    s->ctas = calloc(nctas, sizeof *s->ctas);
    s->nctas = nctas;
    for (uint32_t i = 0; i < nctas; i++) {
        ws_cta_init(&s->ctas[i]);
        s->ctas[i].id[0] = i;
        s->ctas[i].index = i;
    }
}

void synth_free(synth_source *s)
{
    for (size_t i = 0; i < s->nctas; i++)
        ws_cta_free(&s->ctas[i]);
    free(s->ctas);
}

ws_inst *synth_add(synth_source *s, uint32_t c, uint32_t w, isa_op op, uint32_t mask)
{
    ws_cta *cta = &s->ctas[c];
    /* warps are appended in order; instructions go to the last warp */
    while (cta->nwarps <= w)
        if (ws_cta_begin_warp(cta, NULL))
            return NULL;
    if (w != cta->nwarps - 1)
        return NULL; /* tests build warps in order */
    ws_inst *in = ws_cta_push(cta, NULL);
    if (!in)
        return NULL;
    in->op = (uint8_t)op;
    in->mask = mask;
    in->pc = 16 * cta->warps[w].ninst;
    return in;
}

ws_inst *synth_add_mem(synth_source *s, uint32_t c, uint32_t w, isa_op op, uint32_t mask, uint64_t base,
                       uint64_t stride, uint8_t size)
{
    ws_inst *in = synth_add(s, c, w, op, mask);
    if (!in)
        return NULL;
    in->size = size;
    uint64_t *a = ws_cta_push_addr(&s->ctas[c], in, NULL);
    if (!a)
        return NULL;
    for (int l = 0; l < WS_WARP_SIZE; l++)
        if (mask & (1u << l))
            a[l] = base + (uint64_t)l * stride;
    return in;
}

/* A coalesced load from base into r1 and an FMA that uses it. */
void synth_add_load_use(synth_source *s, uint32_t c, uint32_t w, uint64_t base)
{
    ws_inst *ld = synth_add_mem(s, c, w, ISA_OP_LD_GLOBAL, 0xffffffffu, base, 4, 4);
    ld->ndst = 1;
    ld->dst[0] = 1;
    ws_inst *fma = synth_add(s, c, w, ISA_OP_FP32_FMA, 0xffffffffu);
    fma->nsrc = 1;
    fma->src[0] = 1;
    fma->ndst = 1;
    fma->dst[0] = 2;
}

void synth_build_kernel(synth_source *s, uint32_t nctas)
{
    synth_init(s, "synthetic", nctas, 64, 32);
    for (uint32_t c = 0; c < nctas; c++)
        for (uint32_t w = 0; w < 2; w++) {
            uint64_t base = 0x100000 + (uint64_t)(c * 2 + w) * 4096;
            synth_add_load_use(s, c, w, base);
            /* uncoalesced: 32 lanes 128 B apart -> 32 lines of one sector */
            synth_add_mem(s, c, w, ISA_OP_LD_GLOBAL, 0xffffffffu, base + 0x80000000ULL, 128, 4);
            /* shared, 8 B stride of 4 B words: two words per bank -> 2 cycles */
            synth_add_mem(s, c, w, ISA_OP_ST_SHARED, 0xffffffffu, 0, 8, 4);
            synth_add(s, c, w, ISA_OP_EXIT, 0x0000ffffu);
        }
}

void synth_build_prologue(synth_source *s, uint32_t nctas, int mode)
{
    synth_init(s, "prologue", nctas, 64, 16);
    for (uint32_t c = 0; c < nctas; c++)
        for (uint32_t w = 0; w < 2; w++) {
            for (uint32_t i = 0; i < 8; i++) {
                ws_inst *ld = synth_add_mem(s, c, w, ISA_OP_LD_GLOBAL, 0xffffffffu,
                                            0x1000000 + (((uint64_t)c * 2 + w) * 8 + i) * 128, 4, 4);
                ld->ndst = 1;
                ld->dst[0] = (uint16_t)(1 + i);
                if (mode >= 2) { /* a tile: the value goes to shared memory at once */
                    ws_inst *st = synth_add_mem(s, c, w, ISA_OP_ST_SHARED, 0xffffffffu, (uint64_t)i * 128, 4, 4);
                    st->nsrc = 1;
                    st->src[0] = (uint16_t)(1 + i);
                    if (mode == 3 && i == 0)
                        synth_add(s, c, w, ISA_OP_FP32_FMA, 0xffffffffu);
                }
                if (mode == 1 || (mode == 0 && i == 7))
                    for (uint32_t u = mode ? i : 0; u <= i; u++) {
                        ws_inst *f = synth_add(s, c, w, ISA_OP_FP32_FMA, 0xffffffffu);
                        f->nsrc = 1;
                        f->src[0] = (uint16_t)(1 + u);
                    }
            }
            if (mode >= 2) {
                synth_add(s, c, w, ISA_OP_BARRIER, 0xffffffffu);
                for (uint32_t u = 0; u < 8; u++)
                    synth_add(s, c, w, ISA_OP_FP32_FMA, 0xffffffffu);
            }
            synth_add(s, c, w, ISA_OP_EXIT, 0xffffffffu);
        }
}
