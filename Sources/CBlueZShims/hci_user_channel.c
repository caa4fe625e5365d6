#include "CBlueZShims.h"

#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>
#include "CBlueZ.h"

int mdoc_hci_user_channel_open(uint16_t index, int *adapter_is_up, const char **step) {
    *adapter_is_up = 0;
    *step = "socket";
    int fd = socket(AF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, BTPROTO_HCI);
    if (fd < 0) {
        return -errno;
    }
    const char *unavailable = mdoc_bluetooth_open();
    if (unavailable != NULL) {
        close(fd);
        *step = unavailable;
        return -ELIBACC;
    }
    struct hci_dev_info info;
    if (hci_devinfo(index, &info) == 0 && hci_test_bit(HCI_UP, &info.flags)) {
        close(fd);
        *adapter_is_up = 1;
        *step = "devinfo";
        return -EBUSY;
    }
    struct sockaddr_hci address = {0};
    address.hci_family = AF_BLUETOOTH;
    address.hci_dev = index;
    address.hci_channel = HCI_CHANNEL_USER;
    *step = "bind";
    if (bind(fd, (struct sockaddr *)&address, sizeof(address)) < 0) {
        int code = errno;
        close(fd);
        return -code;
    }
    return fd;
}
