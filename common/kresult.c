#include "kresult.h"

const char *const kr_stall_names[KR_STALL_COUNT] = {
#define X(id, name, desc) [KR_##id] = name,
    KR_STALLS(X)
#undef X
};
