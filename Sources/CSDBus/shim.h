// sd-bus, the D-Bus library of libsystemd (sd-bus(3)): the BlueZ transport's binding to
// bluetoothd's D-Bus API (design.md section 4). Only the non-variadic calls are used from Swift.
#include <systemd/sd-bus.h>
