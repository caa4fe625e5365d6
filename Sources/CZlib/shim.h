#ifndef MDOC_CZlib_SHIM_H
#define MDOC_CZlib_SHIM_H
#include <zlib.h>
#endif
