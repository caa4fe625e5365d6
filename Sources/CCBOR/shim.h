#ifndef MDOC_CCBOR_SHIM_H
#define MDOC_CCBOR_SHIM_H
#include <cbor.h>
#endif
