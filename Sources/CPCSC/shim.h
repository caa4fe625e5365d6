#ifndef MDOC_CPCSC_SHIM_H
#define MDOC_CPCSC_SHIM_H
#include <winscard.h>
#include <reader.h>
#endif
