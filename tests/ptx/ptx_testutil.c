#include "ptx_testutil.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

char *tu_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s (tests run from the repository root)", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = 0;
    fclose(f);
    return s;
}

gpurt *tu_device(const char *ptx, const char *name)
{
    ge_err e = {{0}};
    gpurt *d = gpurt_create(ptx, name, &e);
    if (!d)
        fail_msg("%s", e.msg);
    return d;
}

gpurt *tu_device_file(const char *path)
{
    char *s = tu_read(path);
    const char *base = strrchr(path, '/');
    gpurt *d = tu_device(s, base ? base + 1 : path);
    free(s);
    return d;
}

static int cap_event(void *ctx, const ws_event *ev, ge_err *e)
{
    tu_capture *c = ctx;
    if (ge_reserve((void **)&c->ev, &c->evcap, c->nev + 1, sizeof *c->ev, e))
        return -1;
    c->ev[c->nev++] = *ev;
    return 0;
}

static int cap_cta(void *ctx, ws_cta *cta, ge_err *e)
{
    tu_capture *c = ctx;
    size_t cap2 = c->ctacap;
    if (ge_reserve((void **)&c->cta, &c->ctacap, c->ncta + 1, sizeof *c->cta, e))
        return -1;
    if (ge_reserve((void **)&c->cta_kernel, &cap2, c->ncta + 1, sizeof *c->cta_kernel, e))
        return -1;
    ws_cta_init(&c->cta[c->ncta]);
    if (ws_cta_copy(&c->cta[c->ncta], cta, e))
        return -1;
    uint32_t k = 0;
    for (size_t i = 0; i < c->nev; i++)
        if (c->ev[i].kind == WS_EV_KERNEL)
            k = (uint32_t)i;
    c->cta_kernel[c->ncta++] = k;
    return 0;
}

void tu_capture_attach(gpurt *d, tu_capture *c)
{
    memset(c, 0, sizeof *c);
    gpurt_sink s = {c, cap_event, cap_cta};
    gpurt_set_sink(d, &s);
}

void tu_capture_free(tu_capture *c)
{
    for (size_t i = 0; i < c->ncta; i++)
        ws_cta_free(&c->cta[i]);
    free(c->cta);
    free(c->cta_kernel);
    free(c->ev);
    memset(c, 0, sizeof *c);
}

int tu_run_io(const char *ptx, const char *kernel, uint32_t n, uint32_t block, const uint64_t *in,
              size_t in_words, uint64_t *out, size_t out_words, char *err, size_t errcap)
{
    gpurt *d = tu_device(ptx, "test.ptx");
    size_t nr = (size_t)(n + block - 1) / block * block; /* the last block's extra threads read zeros */
    gpurt_ptr din = gpurt_malloc(d, nr * in_words * 8);
    gpurt_ptr dout = gpurt_malloc(d, nr * out_words * 8);
    gpurt_memcpy_h2d(d, din, in, (size_t)n * in_words * 8);
    gpurt_memset(d, dout, 0, nr * out_words * 8);
    void *args[] = {&din, &dout};
    gpurt_launch(d, kernel, gpurt_dim((n + block - 1) / block, 1, 1), gpurt_dim(block, 1, 1), 0, args);
    gpurt_memcpy_d2h(d, out, dout, (size_t)n * out_words * 8);
    int rc = 0;
    if (gpurt_error(d)) {
        if (err)
            snprintf(err, errcap, "%s", gpurt_error(d));
        rc = -1;
    }
    gpurt_destroy(d);
    return rc;
}

static const char op_head[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
    " .reg .b64 %ra, %rb, %rc, %out, %q<8>, %pi, %po, %off;\n"
    " .reg .b32 %wa, %wb, %wc, %w<8>, %tid;\n"
    " .reg .b16 %ha, %hb, %hc, %h<8>;\n"
    " .reg .f32 %fa, %fb, %fc, %f<8>;\n"
    " .reg .f64 %da, %db, %dc, %d<8>;\n"
    " .reg .pred %p<8>;\n"
    " ld.param.u64 %pi, [pin];\n ld.param.u64 %po, [pout];\n"
    " mov.u32 %tid, %tid.x;\n mov.u32 %w0, %ctaid.x;\n mov.u32 %w1, %ntid.x;\n"
    " mad.lo.s32 %tid, %w0, %w1, %tid;\n"
    " mul.wide.u32 %off, %tid, 24;\n add.s64 %pi, %pi, %off;\n"
    " ld.global.u64 %ra, [%pi];\n ld.global.u64 %rb, [%pi+8];\n ld.global.u64 %rc, [%pi+16];\n"
    " mul.wide.u32 %off, %tid, 8;\n add.s64 %po, %po, %off;\n"
    " cvt.u32.u64 %wa, %ra;\n cvt.u32.u64 %wb, %rb;\n cvt.u32.u64 %wc, %rc;\n"
    " cvt.u16.u64 %ha, %ra;\n cvt.u16.u64 %hb, %rb;\n cvt.u16.u64 %hc, %rc;\n"
    " mov.b32 %fa, %wa;\n mov.b32 %fb, %wb;\n mov.b32 %fc, %wc;\n"
    " mov.b64 %da, %ra;\n mov.b64 %db, %rb;\n mov.b64 %dc, %rc;\n"
    " mov.u64 %out, 0;\n";
static const char op_tail[] = "\n st.global.u64 [%po], %out;\n ret;\n}\n";

void tu_op(const char *body, const uint64_t (*in)[3], int n, uint64_t *out)
{
    size_t len = strlen(op_head) + strlen(body) + strlen(op_tail) + 1;
    char *ptx = malloc(len);
    assert_non_null(ptx);
    snprintf(ptx, len, "%s%s%s", op_head, body, op_tail);
    char err[GE_ERR_MAX];
    if (tu_run_io(ptx, "k", (uint32_t)n, 64, &in[0][0], 3, out, 1, err, sizeof err))
        fail_msg("'%s': %s", body, err);
    free(ptx);
}

void tu_op_check(const char *body, const uint64_t (*in)[3], int n, tu_ref ref)
{
    uint64_t *out = calloc((size_t)n + 1, sizeof *out);
    assert_non_null(out);
    tu_op(body, in, n, out);
    for (int t = 0; t < n; t++) {
        uint64_t want = ref(in[t][0], in[t][1], in[t][2]);
        if (out[t] != want)
            fail_msg("'%s' with a=0x%llx b=0x%llx c=0x%llx: got 0x%llx, expected 0x%llx", body,
                     (unsigned long long)in[t][0], (unsigned long long)in[t][1], (unsigned long long)in[t][2],
                     (unsigned long long)out[t], (unsigned long long)want);
    }
    free(out);
}

void tu_op_check_grid(const char *body, const uint64_t *vals, int nv, int nargs, tu_ref ref)
{
    int n = nv;
    for (int i = 1; i < nargs; i++)
        n *= nv;
    uint64_t (*in)[3] = calloc((size_t)n, sizeof *in);
    assert_non_null(in);
    for (int t = 0; t < n; t++) {
        in[t][0] = vals[t % nv];
        in[t][1] = nargs > 1 ? vals[(t / nv) % nv] : 0;
        in[t][2] = nargs > 2 ? vals[(t / nv / nv) % nv] : 0;
    }
    tu_op_check(body, (const uint64_t(*)[3])in, n, ref);
    free(in);
}

uint64_t tu_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
float tu_as_f32(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
uint64_t tu_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
double tu_as_f64(uint64_t v)
{
    double d;
    memcpy(&d, &v, 8);
    return d;
}
