#include "err.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ge_errf(ge_err *e, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int ge_err_prefix(ge_err *e, const char *fmt, ...)
{
    if (!e)
        return -1;
    char pre[GE_ERR_MAX], old[GE_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof pre, fmt, ap);
    va_end(ap);
    memcpy(old, e->msg, sizeof old);
    size_t n = strlen(pre);
    if (n > GE_ERR_MAX - 3)
        n = GE_ERR_MAX - 3;
    memcpy(e->msg, pre, n);
    memcpy(e->msg + n, ": ", 2);
    size_t rest = GE_ERR_MAX - n - 3;
    strncpy(e->msg + n + 2, old, rest);
    e->msg[GE_ERR_MAX - 1] = 0;
    return -1;
}

void *ge_malloc(size_t n, ge_err *e)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        ge_errf(e, "out of memory (%zu bytes)", n);
    return p;
}

void *ge_calloc(size_t n, size_t size, ge_err *e)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        ge_errf(e, "out of memory (%zu x %zu bytes)", n, size);
    return p;
}

int ge_reserve(void **pbuf, size_t *cap, size_t need, size_t elsize, ge_err *e)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2 / elsize)
            return ge_errf(e, "out of memory (array of %zu elements)", need);
        ncap *= 2;
    }
    void *p = realloc(*pbuf, ncap * elsize);
    if (!p)
        return ge_errf(e, "out of memory (%zu bytes)", ncap * elsize);
    *pbuf = p;
    *cap = ncap;
    return 0;
}
