#ifndef MDOC_CZBar_SHIM_H
#define MDOC_CZBar_SHIM_H
#include <zbar.h>
#endif
