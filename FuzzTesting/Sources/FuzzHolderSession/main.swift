import FuzzSupport

#if canImport(Glibc)
import Glibc
#endif

exit(FuzzDriver.run { fuzzHolderSession($0, $1) })
