#ifndef MDOC_CQREncode_SHIM_H
#define MDOC_CQREncode_SHIM_H
#include <qrencode.h>
#endif
