#ifndef MDOC_CPCSC_H
#define MDOC_CPCSC_H
// pcsc-lite's client API (PC/SC part 5) and its reader definitions (part 10), from
// libpcsclite-dev's /usr/include/PCSC.
#include <PCSC/winscard.h>
#include <PCSC/reader.h>
#endif
