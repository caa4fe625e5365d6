#include "CBlueZ.h"
#include "CDynamicLibrary.h"

#define BLUETOOTH_FUNCTIONS(FUNCTION, PROCEDURE) \
    FUNCTION(int, hci_devinfo, (int dev_id, struct hci_dev_info *di), (dev_id, di))

/* libbluetooth has kept soname major 3 since BlueZ 4. */
MDOC_DYNAMIC_LIBRARY("libbluetooth.so.3", BLUETOOTH_FUNCTIONS)

const char *mdoc_bluetooth_open(void) {
    return mdoc_dynamic_library_open(&mdoc_library) ? NULL : mdoc_library.message;
}
