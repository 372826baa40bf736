/*
 * est_cache.c - what the estimates of one profile share across design
 * points (estimate.h): so far, each sampled kernel's shared lines for a
 * line size (shared_lines.c), which depend on the profile and the L1 line
 * size only, and whose scan of every sample CTA's addresses was a sixth of
 * a hybrid estimate of reduction at 16 M elements.
 *
 * Entries are made outside the lock (two threads may both make one; the
 * second is dropped) and never change or move once published, so readers
 * use them without the lock.
 */
#include <pthread.h>
#include <stdlib.h>

#include "estimate_int.h"

typedef struct {
    uint32_t k, line_bytes;
    u64set *set;
} cache_entry;

struct est_cache {
    const profile *p;
    pthread_mutex_t lock;
    cache_entry *e;
    size_t n, cap;
};

est_cache *est_cache_new(const profile *p, ge_err *e)
{
    est_cache *c = calloc(1, sizeof *c);
    if (!c) {
        ge_errf(e, "out of memory (estimate cache)");
        return NULL;
    }
    c->p = p;
    pthread_mutex_init(&c->lock, NULL);
    return c;
}

void est_cache_free(est_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++) {
        u64set_free(c->e[i].set);
        free(c->e[i].set);
    }
    free(c->e);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

static const u64set *find(est_cache *c, uint32_t k, uint32_t line_bytes)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->e[i].k == k && c->e[i].line_bytes == line_bytes)
            return c->e[i].set;
    return NULL;
}

const u64set *est_cache_shared_lines(est_cache *c, const gpu_config *cfg, uint32_t k, ge_err *e)
{
    uint32_t lb = cfg->l1d.line_bytes;
    pthread_mutex_lock(&c->lock);
    const u64set *got = find(c, k, lb);
    pthread_mutex_unlock(&c->lock);
    if (got)
        return got;
    u64set *s = malloc(sizeof *s);
    if (!s) {
        ge_errf(e, "out of memory (shared lines)");
        return NULL;
    }
    u64set_init(s);
    if (est_shared_lines(cfg, &c->p->k[k], s, e)) {
        u64set_free(s);
        free(s);
        return NULL;
    }
    pthread_mutex_lock(&c->lock);
    if ((got = find(c, k, lb)) == NULL) {
        if (c->n == c->cap) {
            size_t cap = c->cap ? 2 * c->cap : 8;
            cache_entry *ne = realloc(c->e, cap * sizeof *ne);
            if (!ne) {
                pthread_mutex_unlock(&c->lock);
                u64set_free(s);
                free(s);
                ge_errf(e, "out of memory (estimate cache)");
                return NULL;
            }
            c->e = ne, c->cap = cap;
        }
        c->e[c->n++] = (cache_entry){k, lb, s};
        got = s, s = NULL;
    }
    pthread_mutex_unlock(&c->lock);
    if (s) { /* another thread made it first */
        u64set_free(s);
        free(s);
    }
    return got;
}

int est_cache_for(const est_cache *c, const profile *p) { return c && c->p == p; }

size_t est_cache_size(const est_cache *c)
{
    pthread_mutex_lock((pthread_mutex_t *)&c->lock);
    size_t n = c->n;
    pthread_mutex_unlock((pthread_mutex_t *)&c->lock);
    return n;
}
