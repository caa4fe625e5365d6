#ifndef MDOC_CPNG_H
#define MDOC_CPNG_H

/* libpng, opened on first use (CDynamicLibrary.h): PNG images of QR codes. */

#include <png.h>

/* Opens libpng and resolves the functions the toolkit calls, once: NULL when they are
 * available, else why not. Call before any png function. */
const char *mdoc_png_open(void);

#endif
