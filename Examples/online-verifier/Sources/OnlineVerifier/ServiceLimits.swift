import MdocOnline

/// The bounds of the online verifier on what its HTTP clients send it, checked before anything
/// is decoded, and how often it forgets requests that can no longer be answered.
public enum ServiceLimits {
    /// 64 KiB: the longest body of `POST /requests`. A request for every element of the mDL
    /// name space is under 2 KiB.
    public static let maximumCreationByteCount = 64 * 1024

    /// The longest body of `POST /requests/{id}/response`: the library's limit on an Annex C
    /// response object, `DCAPILimits.maximumResponseByteCount` (12 MiB).
    public static let maximumResponseByteCount = DCAPILimits.maximumResponseByteCount

    /// 100 000: the most requests the memory store keeps at once (each with its private key,
    /// about 1 KiB), so that requests made and never answered cannot fill the process's memory;
    /// past it `POST /requests` is answered 503 until answers or the purge make room.
    public static let maximumMemoryRequestCount = 100_000

    /// 60 seconds: how often the requests that expired are deleted from the store.
    public static let purgeInterval: Duration = .seconds(60)
}
