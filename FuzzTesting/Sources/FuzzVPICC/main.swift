import FuzzSupport

#if canImport(Glibc)
import Glibc
#endif

exit(FuzzDriver.run { fuzzVPICC($0, $1) })
