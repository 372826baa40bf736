#include "power_components.h"

const char *const pwr_component_names[PWR_COMPONENT_COUNT] = {
#define X(id, name, desc) [PWR_##id] = name,
    PWR_COMPONENTS(X)
#undef X
};

const char *const pwr_component_desc[PWR_COMPONENT_COUNT] = {
#define X(id, name, desc) [PWR_##id] = desc,
    PWR_COMPONENTS(X)
#undef X
};
