import MdocCBOR
import MdocCrypto
import MdocFiles
import MdocHTTP
import MdocModel
import MdocStatusList
import MdocText

#if canImport(Glibc)
import Glibc
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Gets the Status List Tokens a verification needs (draft-ietf-oauth-status-list section 8):
/// from a cache of those fetched before while their time to live lasts (section 13.7), else over
/// HTTP(S) within `HTTPFetchLimits` (`BoundedHTTPClient`), keeping what arrives for next time.
///
/// Every token is handed over as bytes, valid or not: `TokenStatusListChecker` checks it. A
/// list that cannot be had (offline without a cached copy, the network failing, a bound
/// reached) is handed over as unavailable with why, never as a revocation. A cached token is
/// used again while its `ttl` (held within ``minimumTimeToLive`` and ``maximumTimeToLive``)
/// lasts and its `exp` has not passed; offline, or when the network fails, until its `exp`.
/// The cache is a folder of `SHA256(uri).cwt` files, each with a `.json` saying which `uri`, when
/// it was fetched and the token's `ttl` and `exp`; the token itself is checked again at every use.
public struct StatusListResolver: Sendable {
    /// A list to get: where it is published, and which kind of token is served there.
    public struct List: Sendable, Hashable {
        /// What kind of token.
        public enum Kind: Sendable, Hashable {
            /// A Status List Token (an MSO's `status_list`).
            case statusList
            /// An identifier list token (an MSO's `identifier_list`, ISO/IEC 18013-5 second
            /// edition 12.3.6).
            case identifierList

            /// The media type asked for and required (draft section 8.1).
            public var mediaType: String {
                switch self {
                case .statusList: return StatusListToken.mediaType
                case .identifierList: return IdentifierListToken.mediaType
                }
            }
        }

        /// Where it is published.
        public var uri: String
        /// What kind of token is served there.
        public var kind: Kind

        /// The list of `kind` at `uri`.
        public init(_ kind: Kind, uri: String) {
            self.uri = uri
            self.kind = kind
        }
    }

    /// The shortest time a fetched token is used again without fetching, whatever its `ttl`
    /// says: a `ttl` of seconds would make every verification a fetch.
    public static let minimumTimeToLive: TimeInterval = 60
    /// The longest, whatever its `ttl` says (section 11.5: a client bounds it).
    public static let maximumTimeToLive: TimeInterval = 7 * 86_400
    /// The most distinct lists one verification fetches: a response naming more gets the rest
    /// as unavailable, so that a hostile response cannot make the reader fetch without end.
    public static let maximumLists = 8

    /// Where a list came from.
    public enum Source: String, Sendable, Hashable {
        /// Fetched now.
        case network
        /// Fetched before, still fresh.
        case cache
        /// Fetched before and past its `ttl`, used because it could not be fetched now.
        case staleCache
        /// Not had.
        case none
    }

    /// One list as resolved.
    public struct Resolution: Sendable {
        /// What the checker gets.
        public let fetched: TokenStatusListChecker.Fetched
        /// Where it came from.
        public let source: Source
        /// What happened, for a note: why the network was not used, or why it failed.
        public let note: String?
    }

    /// The cache folder; `nil` for none.
    public let cacheFolder: String?
    /// The bounds of each fetch.
    public let limits: HTTPFetchLimits
    /// Whether the network is left alone: only cached lists are used.
    public let offline: Bool

    /// A resolver caching in `cacheFolder` (none when `nil`), fetching within `limits` unless
    /// `offline`.
    public init(cacheFolder: String?, limits: HTTPFetchLimits = HTTPFetchLimits(), offline: Bool = false) {
        self.cacheFolder = cacheFolder
        self.limits = limits
        self.offline = offline
    }

    /// The tokens of `lists` at `time`, by uri, fetched one after the other (each within its
    /// bounds).
    public func resolve(_ lists: [List], at time: Date) async -> [String: Resolution] {
        var resolutions: [String: Resolution] = [:]
        for (position, list) in lists.enumerated() where resolutions[list.uri] == nil {
            guard position < Self.maximumLists else {
                resolutions[list.uri] = Resolution(
                    fetched: .unavailable("the response names more than \(Self.maximumLists) status lists"), source: .none, note: nil)
                continue
            }
            resolutions[list.uri] = await resolve(list, at: time)
        }
        return resolutions
    }

    private func resolve(_ list: List, at time: Date) async -> Resolution {
        let uri = list.uri
        let cached = cacheEntry(uri)
        if let cached, cached.isFresh(at: time) {
            return Resolution(fetched: .token(cached.bytes), source: .cache, note: nil)
        }
        if offline {
            if let cached, cached.isUsable(at: time) {
                return Resolution(fetched: .token(cached.bytes), source: .staleCache, note: "offline: the copy fetched \(TDate(cached.fetched).text) is used")
            }
            return Resolution(fetched: .unavailable("offline, and no usable copy was fetched before"), source: .none, note: nil)
        }
        do {
            let result = try await BoundedHTTPClient().get(uri, accept: list.kind.mediaType, expectedContentType: list.kind.mediaType, limits: limits)
            let unkept = store(result.body, for: list, at: time)
            return Resolution(fetched: .token(result.body), source: .network, note: unkept.map { "not kept for next time: \($0)" })
        } catch {
            if let cached, cached.isUsable(at: time) {
                return Resolution(
                    fetched: .token(cached.bytes), source: .staleCache,
                    note: "\(error.reason); the copy fetched \(TDate(cached.fetched).text) is used")
            }
            return Resolution(fetched: .unavailable(error.reason), source: .none, note: nil)
        }
    }

    /// A cached token with what the cache knows of it.
    struct CacheEntry {
        let bytes: [UInt8]
        let fetched: Date
        let timeToLive: TimeInterval
        let expiration: Date?

        /// Fetched less than its (bounded) time to live ago, and not expired.
        func isFresh(at time: Date) -> Bool {
            time < fetched.addingTimeInterval(timeToLive) && isUsable(at: time)
        }

        /// Not expired, and not fetched later than `time` (beyond the clock skew a token's `iat`
        /// is allowed).
        func isUsable(at time: Date) -> Bool {
            fetched <= time.addingTimeInterval(TimeInterval(StatusListLimits.clockSkew)) && expiration.map { time < $0 } ?? true
        }
    }

    private func paths(_ uri: String) -> (token: String, about: String)? {
        guard let cacheFolder else { return nil }
        let name = Hex.encode(DigestAlgorithm.sha256.hash(Array(uri.utf8)))
        return (cacheFolder + "/" + name + ".cwt", cacheFolder + "/" + name + ".json")
    }

    /// The cached token of `uri`, when there is one for that very uri, with the `ttl` and `exp`
    /// noted when it was stored (the checker decodes and checks the token itself).
    func cacheEntry(_ uri: String) -> CacheEntry? {
        guard let paths = paths(uri),
              let about = try? InputSource.load(paths.about).bytes, let json = try? JSONParser.parse(about, maximumDepth: 2),
              case .object(let members) = json,
              case .string(let cachedURI)? = members.first(where: { $0.0 == "uri" })?.1, cachedURI == uri,
              case .int(let fetchedSeconds)? = members.first(where: { $0.0 == "fetched" })?.1,
              let bytes = try? InputSource.load(paths.token).bytes
        else { return nil }
        func number(_ key: String) -> Int64? {
            if case .int(let value)? = members.first(where: { $0.0 == key })?.1 { return value }
            return nil
        }
        let ttl = number("ttl").map { TimeInterval($0) } ?? Self.minimumTimeToLive
        return CacheEntry(
            bytes: bytes, fetched: Date(timeIntervalSince1970: TimeInterval(fetchedSeconds)),
            timeToLive: min(max(ttl, Self.minimumTimeToLive), Self.maximumTimeToLive),
            expiration: number("exp").map { Date(timeIntervalSince1970: TimeInterval($0)) })
    }

    /// Keeps `bytes` for `list` when they are a token of its kind; says why when they are not
    /// kept. A cache that cannot be written is no reason to fail the verification: the token is
    /// used all the same, and the caller tells the user.
    private func store(_ bytes: [UInt8], for list: List, at time: Date) -> String? {
        let lifetime: (ttl: UInt64?, exp: Int64?)
        do throws(StatusListError) {
            switch list.kind {
            case .statusList:
                let token = try StatusListToken(bytes: bytes)
                lifetime = (token.claims.timeToLive, token.claims.expiration)
            case .identifierList:
                let token = try IdentifierListToken(bytes: bytes)
                lifetime = (token.claims.timeToLive, token.claims.expiration)
            }
        } catch {
            return "it is not a token (\(error.reason))"
        }
        guard let paths = paths(list.uri), let cacheFolder else { return nil }
        var members: [(String, JSONValue)] = [("uri", .string(list.uri)), ("fetched", .int(Int64(time.timeIntervalSince1970.rounded(.down))))]
        if let ttl = lifetime.ttl { members.append(("ttl", .int(Int64(clamping: ttl)))) }
        if let exp = lifetime.exp { members.append(("exp", .int(exp))) }
        let about = JSONValue.object(members)
        do {
            try OutputFile.makeDirectory(cacheFolder, parents: true)
            for (content, path) in [(bytes, paths.token), (Array(about.serialized().utf8), paths.about)] {
                let staging = path + ".new"
                try OutputFile.create(content, at: staging, mode: OutputFile.publicMode, replacing: true)
                guard rename(staging, path) == 0 else {
                    return "renaming \(staging) failed: \(String(cString: strerror(errno)))"
                }
            }
        } catch {
            return "the cache \(cacheFolder) cannot be written: \(error)"
        }
        return nil
    }
}
