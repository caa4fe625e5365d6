#ifndef MDOC_CPNG_SHIM_H
#define MDOC_CPNG_SHIM_H
#include <png.h>
#endif
