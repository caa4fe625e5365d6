// CPCSC has no code of its own: its headers reach pcsc-lite's, and the library is linked.
#include "CPCSC.h"
