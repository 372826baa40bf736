/*
 * ptx_memop.c - memory instructions (ld, st, atom, red, cvta, isspacep) and
 * warp-collective instructions (shfl, vote, match, redux, activemask).
 *
 * Every lane's address is translated and bounds-checked on its own: the
 * state space is the instruction's, or, for generic addresses, the window
 * the address falls in (docs/ptx.md): shared, local and kernel-parameter
 * windows, else global memory through ptx_mem.  An access outside its
 * allocation, frame or window, or not aligned to its size (vector accesses
 * to their total size, as PTX requires), is an error naming the PTX line,
 * the kernel, the thread and the block; the emulator never touches host
 * memory it did not allocate.  The address each lane used is recorded in
 * the form the warp stream reports (ptx.h): global addresses as they are,
 * shared as PTX_WIN_SHARED + offset, local in the interleaved layout.
 *
 * Atomics run lane by lane in lane order, so their results (which lane gets
 * which old value) are deterministic.  atom.add.f32 flushes subnormals as
 * the PTX ISA manual specifies for it.
 *
 * Collectives operate on the lanes that execute the instruction (active and
 * guard true); the membermask operand is not checked against them.  shfl
 * follows the lane and clamp arithmetic of the PTX ISA manual ("shfl.sync"):
 * a source lane outside the segment yields the lane's own value and p=0.
 */
#include <math.h>

#include "ptx_exec.h"

static const char *space_name(int sp)
{
    switch (sp) {
    case PTX_SP_SHARED: return "shared";
    case PTX_SP_LOCAL: return "local";
    case PTX_SP_CONST: return "const";
    case PTX_SP_PARAM: return "param";
    case PTX_SP_FPARAM: return "param";
    default: return "global";
    }
}

static int in_win(uint64_t a, uint64_t base) { return a >= base && a - base < PTX_WIN_SIZE; }

enum { ACC_LOAD, ACC_STORE, ACC_ATOM };
static const char *const acc_name[] = {"load", "store", "atomic"};

/* Translate lane l's address; returns the host pointer or NULL with the
 * error set.  *trace gets the stream address, *sp the resolved space. */
static uint8_t *xlat(ptx_ex *x, int l, uint64_t addr, int space, uint32_t size, int acc, uint64_t *trace, int *sp)
{
    ptx_cta *c = x->c;
    uint32_t t = x->w * 32 + (uint32_t)l;
    uint64_t a = addr;
    if (space == PTX_SP_NONE) {
        if (in_win(a, PTX_WIN_SHARED))
            space = PTX_SP_SHARED, a -= PTX_WIN_SHARED;
        else if (in_win(a, PTX_WIN_LOCAL))
            space = PTX_SP_LOCAL, a -= PTX_WIN_LOCAL;
        else if (in_win(a, PTX_WIN_PARAM))
            space = PTX_SP_PARAM, a -= PTX_WIN_PARAM;
        else
            space = PTX_SP_GLOBAL;
    }
    *sp = space;
    if (addr & (size - 1)) { /* sizes are powers of two */
        ex_fail(x, l, "misaligned %s %s of %u bytes at 0x%llx", space_name(space), acc_name[acc], size,
                (unsigned long long)addr);
        return NULL;
    }
    uint64_t lim;
    switch (space) {
    case PTX_SP_SHARED:
        lim = c->shared_size;
        if (a > lim || size > lim - a)
            break;
        *trace = PTX_WIN_SHARED + a;
        return c->shared + a;
    case PTX_SP_LOCAL:
        lim = c->local_size;
        if (a > lim || size > lim - a)
            break;
        *trace = PTX_LOCAL_TRACE + ((c->index * c->nwarps + x->w) * (uint64_t)(c->local_size >> 2) + (a >> 2)) * 128 +
                 (uint64_t)l * 4 + (a & 3);
        return c->local + (size_t)t * c->local_size + a;
    case PTX_SP_PARAM:
        lim = c->m->funcs[c->L->kernel].param_size;
        if (acc != ACC_LOAD) {
            ex_fail(x, l, "%s to kernel parameter memory at 0x%llx", acc_name[acc], (unsigned long long)addr);
            return NULL;
        }
        if (a > lim || size > lim - a)
            break;
        *trace = PTX_WIN_PARAM + a;
        return c->L->params + a;
    case PTX_SP_FPARAM:
        lim = c->fparam_size;
        if (a > lim || size > lim - a)
            break;
        *trace = 0;
        return c->fparam + (size_t)t * c->fparam_size + a;
    default: {
        ptx_alloc *al = ptx_mem_find(c->L->mem, a, size);
        if (!al)
            break;
        if (acc != ACC_LOAD && (al->flags & PTX_MEM_READONLY)) {
            ex_fail(x, l, "%s to read-only .const memory at 0x%llx", acc_name[acc], (unsigned long long)addr);
            return NULL;
        }
        *trace = a;
        return al->data + (a - al->base);
    }
    }
    ex_fail(x, l, "out-of-bounds %s %s of %u bytes at 0x%llx", space_name(space), acc_name[acc], size,
            (unsigned long long)addr);
    return NULL;
}

static int isa_for(int space, int acc, int in_kernel)
{
    switch (space) {
    case PTX_SP_SHARED: return acc == ACC_ATOM ? ISA_OP_ATOM_SHARED : acc == ACC_STORE ? ISA_OP_ST_SHARED : ISA_OP_LD_SHARED;
    case PTX_SP_LOCAL: return acc == ACC_STORE ? ISA_OP_ST_LOCAL : ISA_OP_LD_LOCAL;
    case PTX_SP_CONST: return ISA_OP_LD_CONST;
    case PTX_SP_PARAM: return in_kernel ? ISA_OP_LD_CONST : ISA_OP_INT_ALU;
    case PTX_SP_FPARAM: return ISA_OP_INT_ALU;
    default: return acc == ACC_ATOM ? ISA_OP_ATOM_GLOBAL : acc == ACC_STORE ? ISA_OP_ST_GLOBAL : ISA_OP_LD_GLOBAL;
    }
}

/* Address of memory operand i for every lane (into scratch row 5). */
static const uint64_t *mem_addr(ptx_ex *x, int i)
{
    const ptx_opnd *o = &x->o[i];
    uint64_t base = (uint64_t)o->imm;
    switch (o->base) {
    case PTX_B_LOCAL: base += x->fr->local; break;
    case PTX_B_FPARAM: base += x->fr->param; break;
    case PTX_B_DYNSHARED: base += x->c->L->dyn_base; break;
    default: break;
    }
    uint64_t *s = x->c->scratch[5];
    if (o->reg == PTX_NO_REG) {
        for (int l = 0; l < 32; l++)
            s[l] = base;
    } else {
        const uint64_t *r = ex_reg(x, o->reg);
        LANES(x->mask, s[l] = r[l] + base);
    }
    return s;
}

static inline uint64_t load_bits(const uint8_t *p, int es, int sgn)
{
    switch (es) {
    case 1: return sgn ? (uint64_t)(int64_t)(int8_t)p[0] : p[0];
    case 2: { uint16_t v; memcpy(&v, p, 2); return sgn ? (uint64_t)(int64_t)(int16_t)v : v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return sgn ? (uint64_t)(int64_t)(int32_t)v : v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

static inline void store_bits(uint8_t *p, uint64_t v, int es)
{
    switch (es) {
    case 1: p[0] = (uint8_t)v; break;
    case 2: { uint16_t u = (uint16_t)v; memcpy(p, &u, 2); break; }
    case 4: { uint32_t u = (uint32_t)v; memcpy(p, &u, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

/* If every executing lane's access lies in one global/const allocation or
 * in shared memory and is aligned: the host pointer of that region, with
 * c->fast_off set to the address the region starts at (so lane l's bytes
 * are at data + (A[l] - fast_off)) and *sp to its space.  Else NULL, and
 * the per-lane path finds (and reports) the problem. */
static uint8_t *fast_base(ptx_ex *x, const uint64_t *A, int space, uint32_t size, int acc, int *sp)
{
    ptx_cta *c = x->c;
    uint64_t lo = UINT64_MAX, hi = 0, bits = 0;
    LANES(x->mask, {
        uint64_t a = A[l];
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
        bits |= a;
    });
    if (!x->mask || (bits & (size - 1)))
        return NULL;
    if (space == PTX_SP_NONE) {
        if (in_win(lo, PTX_WIN_SHARED) && in_win(hi, PTX_WIN_SHARED)) {
            space = PTX_SP_SHARED;
            c->fast_off = PTX_WIN_SHARED;
        } else if (lo >= PTX_GLOBAL_BASE && hi < PTX_GLOBAL_END) {
            space = PTX_SP_GLOBAL;
        } else {
            return NULL;
        }
    } else {
        c->fast_off = 0;
    }
    if (space == PTX_SP_SHARED) {
        uint64_t off = c->fast_off;
        if (hi - off >= c->shared_size || size > c->shared_size - (hi - off) || lo < off)
            return NULL;
        *sp = PTX_SP_SHARED;
        return c->shared;
    }
    if (space != PTX_SP_GLOBAL && space != PTX_SP_CONST)
        return NULL;
    ptx_alloc *al = ptx_mem_find(c->L->mem, lo, hi - lo + size);
    if (!al || (acc != ACC_LOAD && (al->flags & PTX_MEM_READONLY)))
        return NULL;
    c->fast_off = al->base;
    *sp = space;
    return al->data;
}

static int exec_ldst(ptx_ex *x)
{
    ptx_cta *c = x->c;
    const ptx_inst *in = x->in;
    int st = in->op == PTX_OP_ST;
    int mo = st ? 0 : 1, vo = st ? 1 : 0;
    int es = ptx_types[in->type].size, n = in->vec, sgn = ptx_types[in->type].kind == 's';
    uint32_t size = (uint32_t)(es * n);
    const uint64_t *A = mem_addr(x, mo);
    uint64_t *regs[4] = {0};
    const uint64_t *vals[4] = {0};
    const ptx_opnd *v = &x->o[vo];
    if (v->kind == PTX_O_VEC) {
        for (int k = 0; k < n; k++) {
            uint32_t r = c->m->vregs[v->reg + (uint32_t)k];
            if (r == PTX_NO_REG) {
                if (st)
                    return ex_fail(x, -1, "'_' as store data");
                continue;
            }
            regs[k] = ex_reg(x, r);
            vals[k] = regs[k];
        }
    } else if (st) {
        vals[0] = ex_src(x, vo);
    } else if (v->kind == PTX_O_REG) {
        regs[0] = ex_reg(x, v->reg);
    }
    int space = in->space, sp = space, first = 1;
    int in_kernel = c->m->funcs[in->func].is_kernel;
    int acc = st ? ACC_STORE : ACC_LOAD;
    uint8_t *base = fast_base(x, A, space, size, acc, &sp);
    if (base) {
        /* every lane in one allocation (or the shared window), aligned */
        c->dyn_isa = (uint8_t)isa_for(sp, acc, in_kernel);
        c->has_addr = 1;
        uint64_t ab = c->fast_off;
        if (st) {
            for (int k = 0; k < n; k++) {
                const uint64_t *v = vals[k];
                switch (es) {
                case 4: LANES(x->mask, { uint32_t u = (uint32_t)v[l]; memcpy(base + (A[l] - ab) + 4 * k, &u, 4); }); break;
                case 8: LANES(x->mask, memcpy(base + (A[l] - ab) + 8 * k, &v[l], 8)); break;
                default: LANES(x->mask, store_bits(base + (A[l] - ab) + k * es, v[l], es)); break;
                }
            }
        } else {
            for (int k = 0; k < n; k++) {
                uint64_t *d = regs[k];
                if (!d)
                    continue;
                if (es == 4 && !sgn)
                    LANES(x->mask, { uint32_t u; memcpy(&u, base + (A[l] - ab) + 4 * k, 4); d[l] = u; });
                else if (es == 8)
                    LANES(x->mask, memcpy(&d[l], base + (A[l] - ab) + 8 * k, 8));
                else
                    LANES(x->mask, d[l] = load_bits(base + (A[l] - ab) + k * es, es, sgn));
            }
        }
        if (sp == PTX_SP_SHARED)
            LANES(x->mask, c->addr[l] = PTX_WIN_SHARED + (A[l] - ab));
        else
            LANES(x->mask, c->addr[l] = A[l]);
        return 0;
    }
    for (uint32_t mm = x->mask; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        uint64_t tr;
        uint8_t *p = xlat(x, l, A[l], space, size, acc, &tr, &sp);
        if (!p)
            return -1;
        c->addr[l] = tr;
        if (first) {
            c->dyn_isa = (uint8_t)isa_for(sp, acc, in_kernel);
            first = 0;
        }
        if (st) {
            for (int k = 0; k < n; k++)
                store_bits(p + k * es, vals[k][l], es);
        } else {
            for (int k = 0; k < n; k++)
                if (regs[k])
                    regs[k][l] = load_bits(p + k * es, es, sgn);
        }
    }
    c->has_addr = isa_is_mem((isa_op)c->dyn_isa);
    return 0;
}

static int exec_atom(ptx_ex *x)
{
    ptx_cta *c = x->c;
    const ptx_inst *in = x->in;
    int ty = in->type, es = ptx_types[ty].size;
    char kind = ptx_types[ty].kind;
    const uint64_t *A = mem_addr(x, 1);
    const uint64_t *b = ex_src(x, 2);
    const uint64_t *cc = x->o[3].kind != PTX_O_NONE ? ex_src(x, 3) : NULL;
    uint64_t *d = x->o[0].kind == PTX_O_REG ? ex_reg(x, x->o[0].reg) : NULL;
    uint64_t M = es == 8 ? ~0ull : 0xffffffffull;
    int sp = in->space, first = 1;
    for (uint32_t mm = x->mask; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        uint64_t tr;
        uint8_t *p = xlat(x, l, A[l], in->space, (uint32_t)es, ACC_ATOM, &tr, &sp);
        if (!p)
            return -1;
        if (first) {
            if (sp != PTX_SP_GLOBAL && sp != PTX_SP_SHARED)
                return ex_fail(x, l, "atomic on %s memory", space_name(sp));
            c->dyn_isa = (uint8_t)isa_for(sp, ACC_ATOM, 1);
            first = 0;
        }
        c->addr[l] = tr;
        uint64_t old = load_bits(p, es, 0), bv = b[l] & M, nv;
        switch (in->sub) {
        case PTX_AOP_ADD:
            if (ty == PTX_T_F32) {
                float u = ex_f32(old), v = ex_f32(bv);
                if (fpclassify(u) == FP_SUBNORMAL)
                    u = copysignf(0, u);
                if (fpclassify(v) == FP_SUBNORMAL)
                    v = copysignf(0, v);
                float r = u + v;
                if (fpclassify(r) == FP_SUBNORMAL)
                    r = copysignf(0, r);
                nv = ex_bf32(r);
            } else if (ty == PTX_T_F64) {
                nv = ex_bf64(ex_f64(old) + ex_f64(bv));
            } else {
                nv = (old + bv) & M;
            }
            break;
        case PTX_AOP_MIN:
        case PTX_AOP_MAX: {
            int mx = in->sub == PTX_AOP_MAX, lt;
            if (kind == 's')
                lt = es == 8 ? (int64_t)old < (int64_t)bv : (int32_t)old < (int32_t)bv;
            else
                lt = old < bv;
            nv = (lt != mx) ? old : bv;
            break;
        }
        case PTX_AOP_INC: nv = old >= bv ? 0 : old + 1; break;
        case PTX_AOP_DEC: nv = (old == 0 || old > bv) ? bv : old - 1; break;
        case PTX_AOP_CAS: nv = old == bv ? (cc[l] & M) : old; break;
        case PTX_AOP_EXCH: nv = bv; break;
        case PTX_AOP_AND: nv = old & bv; break;
        case PTX_AOP_OR: nv = old | bv; break;
        default: nv = old ^ bv; break;
        }
        store_bits(p, nv, es);
        if (d)
            d[l] = old;
    }
    c->has_addr = 1;
    return 0;
}

static int exec_cvta(ptx_ex *x)
{
    const ptx_inst *in = x->in;
    uint64_t *d = ex_reg(x, x->o[0].reg);
    const uint64_t *a = ex_src(x, 1);
    uint64_t base;
    switch (in->space) {
    case PTX_SP_SHARED: base = PTX_WIN_SHARED; break;
    case PTX_SP_LOCAL: base = PTX_WIN_LOCAL; break;
    case PTX_SP_PARAM: base = PTX_WIN_PARAM; break;
    default: base = 0; break;
    }
    uint64_t M = ptx_types[in->type].size == 8 ? ~0ull : 0xffffffffull;
    if (in->flags & PTX_F_TO)
        LANES(x->mask, d[l] = (a[l] - base) & M);
    else
        LANES(x->mask, d[l] = (a[l] + base) & M);
    return 0;
}

static int exec_isspacep(ptx_ex *x)
{
    const uint64_t *a = ex_src(x, 1);
    uint32_t r = 0;
    ptx_mem *mem = x->c->L->mem;
    LANES(x->mask, {
        uint64_t v = a[l];
        int t;
        switch (x->in->space) {
        case PTX_SP_SHARED: t = in_win(v, PTX_WIN_SHARED); break;
        case PTX_SP_LOCAL: t = in_win(v, PTX_WIN_LOCAL); break;
        case PTX_SP_PARAM: t = in_win(v, PTX_WIN_PARAM); break;
        case PTX_SP_CONST: {
            ptx_alloc *al = ptx_mem_find(mem, v, 1);
            t = al && (al->flags & PTX_MEM_READONLY);
            break;
        }
        default: t = !in_win(v, PTX_WIN_SHARED) && !in_win(v, PTX_WIN_LOCAL) && !in_win(v, PTX_WIN_PARAM); break;
        }
        r |= (uint32_t)t << l;
    });
    ex_setp(x, 0, r);
    return 0;
}

int ptx_exec_mem(ptx_ex *x)
{
    switch (x->in->op) {
    case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_ST:
        return exec_ldst(x);
    case PTX_OP_ATOM: case PTX_OP_RED:
        return exec_atom(x);
    case PTX_OP_CVTA:
        return exec_cvta(x);
    case PTX_OP_ISSPACEP:
        return exec_isspacep(x);
    default: /* prefetch: no functional effect */
        return 0;
    }
}

/* ------------------------------------------------------------ collectives */

int ptx_exec_collective(ptx_ex *x)
{
    const ptx_inst *in = x->in;
    uint32_t mask = x->mask;
    switch (in->op) {
    case PTX_OP_ACTIVEMASK: {
        uint64_t *d = ex_reg(x, x->o[0].reg);
        LANES(mask, d[l] = x->active);
        return 0;
    }
    case PTX_OP_VOTE: {
        uint32_t p = ex_pred(x, 1) & mask;
        if (in->sub == PTX_VOTE_BALLOT) {
            uint64_t *d = ex_reg(x, x->o[0].reg);
            LANES(mask, d[l] = p);
            return 0;
        }
        int r = in->sub == PTX_VOTE_ALL ? p == mask : in->sub == PTX_VOTE_ANY ? p != 0 : (p == 0 || p == mask);
        ex_setp(x, 0, r ? 0xffffffffu : 0);
        return 0;
    }
    case PTX_OP_SHFL: {
        const uint64_t *a = ex_src(x, 2), *b = ex_src(x, 3), *cc = ex_src(x, 4);
        uint64_t v[32];
        for (int l = 0; l < 32; l++)
            v[l] = a[l];
        uint64_t *d = ex_reg(x, x->o[0].reg);
        uint32_t pv = 0;
        LANES(mask, {
            int bval = (int)(b[l] & 31), cval = (int)(cc[l] & 31), seg = (int)((cc[l] >> 8) & 31);
            int maxl = (l & seg) | (cval & ~seg), minl = l & seg, j, ok;
            switch (in->sub) {
            case PTX_SHFL_UP: j = l - bval; ok = j >= maxl; break;
            case PTX_SHFL_DOWN: j = l + bval; ok = j <= maxl; break;
            case PTX_SHFL_BFLY: j = l ^ bval; ok = j <= maxl; break;
            default: j = minl | (bval & ~seg); ok = j <= maxl; break;
            }
            if (!ok || j < 0 || j > 31)
                j = l;
            d[l] = v[j] & 0xffffffffu;
            pv |= (uint32_t)ok << l;
        });
        if (x->o[1].kind == PTX_O_PRED)
            ex_setp(x, 1, pv);
        return 0;
    }
    case PTX_OP_MATCH: {
        const uint64_t *a = ex_src(x, 2);
        uint64_t M = in->type == PTX_T_B64 ? ~0ull : 0xffffffffull;
        uint64_t *d = ex_reg(x, x->o[0].reg);
        uint64_t v[32];
        for (int l = 0; l < 32; l++)
            v[l] = a[l] & M;
        if (in->sub == PTX_VOTE_ANY) {
            LANES(mask, {
                uint32_t r = 0;
                for (uint32_t k = mask; k; k &= k - 1) {
                    int j = __builtin_ctz(k);
                    if (v[j] == v[l])
                        r |= 1u << j;
                }
                d[l] = r;
            });
            return 0;
        }
        int all = 1, f = mask ? __builtin_ctz(mask) : 0;
        for (uint32_t k = mask; k; k &= k - 1)
            if (v[__builtin_ctz(k)] != v[f])
                all = 0;
        LANES(mask, d[l] = all ? mask : 0);
        if (x->o[1].kind == PTX_O_PRED)
            ex_setp(x, 1, all ? 0xffffffffu : 0);
        return 0;
    }
    case PTX_OP_REDUX: {
        const uint64_t *a = ex_src(x, 1);
        int sg = in->type == PTX_T_S32;
        uint32_t acc = 0;
        int first = 1;
        for (uint32_t k = mask; k; k &= k - 1) {
            uint32_t v = (uint32_t)a[__builtin_ctz(k)];
            if (first) {
                acc = v;
                first = 0;
                continue;
            }
            switch (in->sub) {
            case PTX_AOP_ADD: acc += v; break;
            case PTX_AOP_AND: acc &= v; break;
            case PTX_AOP_OR: acc |= v; break;
            case PTX_AOP_XOR: acc ^= v; break;
            case PTX_AOP_MIN: acc = sg ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
            default: acc = sg ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
            }
        }
        uint64_t *d = ex_reg(x, x->o[0].reg);
        LANES(mask, d[l] = acc);
        return 0;
    }
    default:
        return ex_fail(x, -1, "internal: bad collective");
    }
}
