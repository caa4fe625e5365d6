#ifndef MDOC_CBLUEZ_H
#define MDOC_CBLUEZ_H

/* libbluetooth, opened on first use (CDynamicLibrary.h): adapter lookup for the HCI user channel. */

#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>

/* Opens libbluetooth and resolves the functions the toolkit calls, once: NULL when they are
 * available, else why not. Call before any libbluetooth function. */
const char *mdoc_bluetooth_open(void);

#endif
