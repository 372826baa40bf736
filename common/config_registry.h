/*
 * config_registry.h - the shipped GPU configs, compiled into the binary.
 *
 * configs/NAME.cfg are turned into C arrays at build time
 * (configs/embed_configs.cmake), so an installed gpuest needs no data
 * directory: `--config v100` always means the v100 this binary was built
 * with.  A name that is an existing file is read from disk instead, so a
 * user's own config (or an edited copy of a shipped one) always wins.
 */
#ifndef GE_CONFIG_REGISTRY_H
#define GE_CONFIG_REGISTRY_H

#include <stddef.h>

#include "err.h"
#include "gpu_config.h"

typedef struct gcfg_embedded {
    const char *name;          /* short name: "v100" */
    const char *path;          /* "configs/v100.cfg": used in error messages */
    const unsigned char *text; /* file contents, NUL-terminated */
    size_t len;                /* bytes, without the NUL */
} gcfg_embedded;

/* All shipped configs, sorted by name (generated file configs_embedded.c). */
extern const gcfg_embedded gcfg_embedded_configs[];
extern const size_t gcfg_embedded_count;

/* The shipped config with this short name ("v100"), or NULL. */
const gcfg_embedded *gcfg_find_embedded(const char *name);

/* Load and validate a config.  If name_or_path names an existing file it is
 * loaded from disk; otherwise it must be a shipped config's short name, and
 * errors then name it as "configs/NAME.cfg:LINE".  -1 with a one-line
 * message in e (which lists the shipped names when nothing matched). */
int gcfg_load_named(const char *name_or_path, gpu_config *cfg, ge_err *e);

/* Comma-separated list of the shipped short names, for help texts. */
void gcfg_embedded_names(char *buf, size_t cap);

#endif
