#ifndef MDOC_CBlueZ_SHIM_H
#define MDOC_CBlueZ_SHIM_H
// libbluetooth (BlueZ): linked for CBlueZShims, which alone includes these headers (C code,
// not Swift, since their libc includes would shadow Glibc's declarations in Swift).
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
#endif
