// pcsc-lite's headers include each other by bare name, as if /usr/include/PCSC were on the
// include path (its pkg-config file says so, with -pthread, which SwiftPM refuses): this
// forwards the bare name to the header in its folder.
#include <PCSC/pcsclite.h>
