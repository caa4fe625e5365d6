#ifndef MDOC_CZBAR_H
#define MDOC_CZBAR_H

/* zbar, opened on first use (CDynamicLibrary.h): the QR code reader of `--qr-image`. */

#include <zbar.h>

/* Opens libzbar and resolves the functions the toolkit calls, once: NULL when they are
 * available, else why not. Call before any zbar function. */
const char *mdoc_zbar_open(void);

#endif
