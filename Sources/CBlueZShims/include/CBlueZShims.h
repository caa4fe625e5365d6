#ifndef MDOC_CBLUEZ_SHIMS_H
#define MDOC_CBLUEZ_SHIMS_H
#include <stdint.h>

/// Opens the Linux HCI user channel of adapter hci<index> with libbluetooth: an AF_BLUETOOTH
/// raw HCI socket (close-on-exec, non-blocking) bound to HCI_CHANNEL_USER. Returns the socket,
/// or -errno of the step that failed; *step names that step ("socket", "devinfo", "bind"). When
/// libbluetooth (opened on first use) cannot be opened, -ELIBACC is returned and *step says why.
/// When the adapter exists and is up, nothing is bound, *adapter_is_up is 1 and -EBUSY is
/// returned. No BlueZ type crosses this interface, so Swift never imports the BlueZ headers
/// (whose libc includes would shadow Glibc's).
int mdoc_hci_user_channel_open(uint16_t index, int *adapter_is_up, const char **step);

#endif
