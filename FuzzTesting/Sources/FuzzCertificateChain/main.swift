import FuzzSupport

#if canImport(Glibc)
import Glibc
#endif

exit(FuzzDriver.run { fuzzCertificateChain($0, $1) })
