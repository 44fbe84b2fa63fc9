/* sim/api/errors.c: names and descriptions of the public error codes, generated
 * from GS_ERR_MAP in include/gpusim.h. */
#include <stdio.h>

#include "gpusim.h"

const char *gs_error_name(int err)
{
    switch (err) {
#define GS_ERR_NAME_(name, value, desc)                                                          \
    case value:                                                                                  \
        return #name;
        GS_ERR_MAP(GS_ERR_NAME_)
#undef GS_ERR_NAME_
    }
    return "GS_ERR_UNKNOWN";
}

const char *gs_error_string(int err)
{
    switch (err) {
#define GS_ERR_DESC_(name, value, desc)                                                          \
    case value:                                                                                  \
        return desc;
        GS_ERR_MAP(GS_ERR_DESC_)
#undef GS_ERR_DESC_
    }
    return "unknown error";
}
