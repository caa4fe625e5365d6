import FuzzSupport

#if canImport(Glibc)
import Glibc
#endif

exit(FuzzDriver.run { fuzzCBOR($0, $1) })
