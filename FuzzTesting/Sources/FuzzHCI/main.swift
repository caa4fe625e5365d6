import FuzzSupport

#if canImport(Glibc)
import Glibc
#endif

exit(FuzzDriver.run { fuzzHCI($0, $1) })
