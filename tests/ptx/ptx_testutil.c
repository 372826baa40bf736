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
    gpurt_ptr din = gpurt_malloc(d, (size_t)n * in_words * 8 + 8);
    gpurt_ptr dout = gpurt_malloc(d, (size_t)n * out_words * 8 + 8);
    gpurt_memcpy_h2d(d, din, in, (size_t)n * in_words * 8);
    gpurt_memset(d, dout, 0, (size_t)n * out_words * 8);
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
