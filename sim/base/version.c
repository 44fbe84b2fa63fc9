/* sim/base/version.c: build identity; the strings come from CMake definitions. */
#include "sim/base/version.h"

#include "gpusim.h"

#ifndef GPUSIM_VERSION
#define GPUSIM_VERSION "unknown"
#endif
#include "gitrev.h" /* generated at build time by cmake/gitrev.cmake */

const char *sim_version(void) { return GPUSIM_VERSION; }
const char *sim_git_revision(void) { return GPUSIM_GIT_REV; }

const char *gs_version(void) { return GPUSIM_VERSION " (git " GPUSIM_GIT_REV ")"; }
