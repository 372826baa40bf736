/*
 * fuzz_trace.c - libFuzzer target for the Accel-Sim trace reader.
 *
 * The input is read three ways: as one kernel trace (plain, or xz when it
 * starts with the xz magic bytes) through the whole ws_source API - events,
 * streamed CTAs and open_cta on a few indexes - and as a kernelslist.g.
 * Every error must be one line; anything else (crash, leak, sanitizer
 * report, a multi-line message) is a finding.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "accelsim.h"
#include "as_internal.h"

static void one_line(const ge_err *e)
{
    if (e->msg[0] == 0 || strchr(e->msg, '\n'))
        abort();
}

static void read_trace(const uint8_t *data, size_t size)
{
    ws_source *s;
    ge_err e;
    if (accelsim_open_buffer(data, size, "fuzz.traceg", &s, &e)) {
        one_line(&e);
        return;
    }
    ws_event ev;
    ws_cta c;
    ws_cta_init(&c);
    int r;
    while ((r = ws_next_event(s, &ev, &e)) == 1) {
        uint64_t n = ws_kernel_nctas(&ev.kernel);
        if (ws_open_cta(s, n - 1, &c, &e))
            one_line(&e);
        unsigned got = 0;
        while ((r = ws_next_cta(s, &c, &e)) == 1)
            got++;
        if (r < 0)
            one_line(&e);
        if (ws_open_cta(s, 0, &c, &e))
            one_line(&e);
        if (got > 1 && ws_open_cta(s, 1, &c, &e))
            one_line(&e);
    }
    if (r < 0)
        one_line(&e);
    ws_cta_free(&c);
    ws_close(s);
}

static void read_list(const uint8_t *data, size_t size)
{
    as_in in;
    ge_err e;
    as_cmd *cmds;
    size_t n;
    if (as_in_open_mem(&in, data, size, "kernelslist.g", &e)) {
        one_line(&e);
        return;
    }
    if (as_list_read(&in, "dir", &cmds, &n, &e) == 0)
        as_list_free(cmds, n);
    else
        one_line(&e);
    as_in_close(&in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_trace(data, size);
    read_list(data, size);
    return 0;
}
