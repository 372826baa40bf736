/*
 * config_registry.c - finding a GPU config by short name or path.
 *
 * The lookup order is deliberately simple: an existing file first, then a
 * shipped name.  A missing path and an unknown name get different messages
 * so that a typo in `--config v10O` says which names exist, while a typo in
 * a path says the file is missing.
 */
#include "config_registry.h"

#include <string.h>
#include <sys/stat.h>

const gcfg_embedded *gcfg_find_embedded(const char *name)
{
    for (size_t i = 0; i < gcfg_embedded_count; i++)
        if (strcmp(gcfg_embedded_configs[i].name, name) == 0)
            return &gcfg_embedded_configs[i];
    return NULL;
}

void gcfg_embedded_names(char *buf, size_t cap)
{
    size_t used = 0;
    if (cap)
        buf[0] = 0;
    for (size_t i = 0; i < gcfg_embedded_count && used < cap; i++) {
        int n = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", gcfg_embedded_configs[i].name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

static int looks_like_path(const char *s) { return strchr(s, '/') || strstr(s, ".cfg"); }

int gcfg_load_named(const char *name_or_path, gpu_config *cfg, ge_err *e)
{
    if (!name_or_path || !*name_or_path)
        return ge_errf(e, "empty config name");
    struct stat st;
    if (stat(name_or_path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return ge_errf(e, "%s: is a directory, not a config file", name_or_path);
        return gcfg_load(name_or_path, cfg, e);
    }
    const gcfg_embedded *emb = gcfg_find_embedded(name_or_path);
    if (emb)
        return gcfg_load_string((const char *)emb->text, emb->path, cfg, e);
    char names[256];
    gcfg_embedded_names(names, sizeof names);
    if (looks_like_path(name_or_path))
        return ge_errf(e, "%s: cannot open config file (no such file)", name_or_path);
    return ge_errf(e, "'%s' is neither a file nor a shipped config (shipped: %s)", name_or_path, names);
}
