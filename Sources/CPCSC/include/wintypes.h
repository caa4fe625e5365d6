// See pcsclite.h beside this file: the bare name forwarded to pcsc-lite's header.
#include <PCSC/wintypes.h>
