/*
 * suite_source.c - a suite workload as a warp stream (suite_source.h).
 *
 * The workload's host driver (wl_desc.run) runs in a producer thread
 * against a gpurt device whose sink hands every event and every finished
 * CTA to the consumer through a one-slot handoff guarded by one mutex and
 * one condition variable:
 *
 *   producer (driver thread)              consumer (ws_next_event/next_cta)
 *   wait until the slot is empty          wait until the slot is full
 *   put an event, END or ERROR; or        take it: an event is copied; a
 *   swap a finished CTA's buffers into    CTA's buffers are swapped with the
 *   the slot's ws_cta                     consumer's ws_cta (no copy)
 *
 * Three sets of CTA buffers circulate (the emulator's, the slot's, the
 * consumer's), so the emulator runs the next CTA while the consumer works
 * on the previous one, at most one CTA ahead; memory stays bounded and the
 * order of events and CTAs is the driver's (deterministic).
 * Strings of a kernel event point into the device's module, which lives
 * until the source is closed.  ws_next_event() discards CTAs the consumer
 * did not take.  Closing early sets a cancel flag: the next sink callback
 * fails, which makes the device's sticky error stop the driver at its next
 * gpurt call; close waits for the thread, so nothing leaks.  The driver's
 * own error (a verification failure, an emulator error) is delivered to
 * the consumer as the result of its next call, after the events before it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gpurt.h"
#include "suite_source.h"

enum { SLOT_EMPTY = 0, SLOT_EVENT, SLOT_CTA, SLOT_END, SLOT_ERROR };

typedef struct suite_src {
    ws_source base;
    const wl_desc *w;
    wl_params p;
    gpurt *dev;
    pthread_t th;
    int started;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int slot;
    ws_event ev;   /* SLOT_EVENT */
    ws_cta cta;    /* SLOT_CTA */
    int cancel;
    ge_err err;    /* SLOT_ERROR */
} suite_src;

/* ---- producer side (driver thread) ---- */

/* Wait for an empty slot; -1 if the consumer cancelled. Called locked. */
static int wait_empty(suite_src *s, ge_err *e)
{
    while (s->slot != SLOT_EMPTY && !s->cancel)
        pthread_cond_wait(&s->cv, &s->mu);
    if (s->cancel)
        return ge_errf(e, "%s: cancelled by the consumer", s->w->name);
    return 0;
}

static int sink_event(void *ctx, const ws_event *ev, ge_err *e)
{
    suite_src *s = ctx;
    pthread_mutex_lock(&s->mu);
    int rc = wait_empty(s, e);
    if (!rc) {
        s->ev = *ev;
        s->slot = SLOT_EVENT;
        pthread_cond_broadcast(&s->cv);
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static int sink_cta(void *ctx, ws_cta *cta, ge_err *e)
{
    suite_src *s = ctx;
    pthread_mutex_lock(&s->mu);
    int rc = wait_empty(s, e);
    if (!rc) {
        ws_cta tmp = s->cta; /* the device gets the slot's spare buffers back */
        s->cta = *cta;
        *cta = tmp;
        s->slot = SLOT_CTA;
        pthread_cond_broadcast(&s->cv);
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static void *producer(void *arg)
{
    suite_src *s = arg;
    ge_err e = {{0}};
    int rc = s->w->run(s->dev, &s->p, &e);
    if (rc && !e.msg[0])
        ge_errf(&e, "%s: failed", s->w->name);
    pthread_mutex_lock(&s->mu);
    if (wait_empty(s, NULL) == 0) {
        if (rc) {
            s->err = e;
            s->slot = SLOT_ERROR;
        } else {
            s->slot = SLOT_END;
        }
        pthread_cond_broadcast(&s->cv);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* ---- consumer side ---- */

static void wait_full(suite_src *s)
{
    while (s->slot == SLOT_EMPTY)
        pthread_cond_wait(&s->cv, &s->mu);
}

static int ss_next_event(ws_source *src, ws_event *ev, ge_err *e)
{
    suite_src *s = (suite_src *)src;
    pthread_mutex_lock(&s->mu);
    int rc;
    for (;;) {
        wait_full(s);
        if (s->slot == SLOT_CTA) { /* not consumed: skip it */
            s->slot = SLOT_EMPTY;
            pthread_cond_broadcast(&s->cv);
            continue;
        }
        if (s->slot == SLOT_EVENT) {
            *ev = s->ev;
            s->slot = SLOT_EMPTY;
            pthread_cond_broadcast(&s->cv);
            rc = 1;
        } else if (s->slot == SLOT_END) {
            rc = 0;
        } else {
            rc = -1;
            if (e)
                *e = s->err;
        }
        break;
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static int ss_next_cta(ws_source *src, ws_cta *cta, ge_err *e)
{
    suite_src *s = (suite_src *)src;
    pthread_mutex_lock(&s->mu);
    wait_full(s);
    int rc;
    if (s->slot == SLOT_CTA) {
        ws_cta tmp = *cta;
        *cta = s->cta;
        s->cta = tmp;
        s->slot = SLOT_EMPTY;
        pthread_cond_broadcast(&s->cv);
        rc = 1;
    } else if (s->slot == SLOT_ERROR) {
        rc = -1;
        if (e)
            *e = s->err;
    } else {
        rc = 0; /* the next event (or the end) comes first */
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static void ss_close(ws_source *src)
{
    suite_src *s = (suite_src *)src;
    if (s->started) {
        pthread_mutex_lock(&s->mu);
        s->cancel = 1;
        pthread_cond_broadcast(&s->cv);
        pthread_mutex_unlock(&s->mu);
        pthread_join(s->th, NULL);
    }
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    gpurt_destroy(s->dev);
    ws_cta_free(&s->cta);
    free(s);
}

static const ws_source_ops suite_ops = {"suite", ss_next_event, ss_next_cta, NULL, ss_close};

int suite_source_open(const wl_desc *w, const wl_params *p, ws_source **out, ge_err *e)
{
    *out = NULL;
    suite_src *s = calloc(1, sizeof *s);
    if (!s)
        return ge_errf(e, "out of memory");
    s->base.ops = &suite_ops;
    ws_cta_init(&s->cta);
    s->w = w;
    s->p = *p;
    if (pthread_mutex_init(&s->mu, NULL)) {
        free(s);
        return ge_errf(e, "%s: cannot create a mutex", w->name);
    }
    if (pthread_cond_init(&s->cv, NULL)) {
        pthread_mutex_destroy(&s->mu);
        free(s);
        return ge_errf(e, "%s: cannot create a condition variable", w->name);
    }
    s->dev = gpurt_create(w->ptx, w->ptx_name, e);
    if (!s->dev || gpurt_set_resources(s->dev, w->ptx_resources)) {
        if (s->dev)
            ge_errf(e, "%s: %s", w->name, gpurt_error(s->dev));
        ss_close(&s->base);
        return -1;
    }
    gpurt_sink sink = {s, sink_event, sink_cta};
    gpurt_set_sink(s->dev, &sink);
    if (pthread_create(&s->th, NULL, producer, s)) {
        ss_close(&s->base);
        return ge_errf(e, "%s: cannot start the driver thread", w->name);
    }
    s->started = 1;
    *out = &s->base;
    return 0;
}
