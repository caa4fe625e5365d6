#ifndef MDOC_CSDBUS_H
#define MDOC_CSDBUS_H

/* sd-bus from libsystemd, opened on first use (CDynamicLibrary.h): D-Bus to bluetoothd. */

#include <systemd/sd-bus.h>

/* Opens libsystemd and resolves the sd-bus functions the toolkit calls, once: NULL when they
 * are available, else why not. Call before any sd_bus function. */
const char *mdoc_sd_bus_open(void);

#endif
