/* sim/base/version.h: build identity (version and git revision baked in by CMake). */
#ifndef GPUSIM_SIM_BASE_VERSION_H
#define GPUSIM_SIM_BASE_VERSION_H

const char *sim_version(void);
const char *sim_git_revision(void);

#endif
