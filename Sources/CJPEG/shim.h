#ifndef MDOC_CJPEG_SHIM_H
#define MDOC_CJPEG_SHIM_H
#include <stdio.h>
#include <jpeglib.h>
#endif
