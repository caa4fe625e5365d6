// `mdoc-benchmark status`, second part: getting the token before it is checked, beside its floor,
// measured in the same run:
//   - from the cache (StatusListResolver with a fresh copy: the cache's two files read, the token
//     decoded for its ttl and exp), against reading those two files alone;
//   - over the network (BoundedHTTPClient through libcurl, from Tests/Interop/status/status_server.py
//     on loopback), against the same GET made with a plain socket (connect, one request, read to
//     the end): the floor of the server and the loopback, without libcurl.

import Dispatch
import MdocCBOR
import MdocCrypto
import MdocFiles
import MdocHTTP
import MdocPosix
import MdocStatusList
import MdocStores
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

enum StatusFetchBenchmark {
    /// The figures of one token.
    struct Row {
        let tokenBytes: Int
        let cache: Measurement
        let cacheFloor: Measurement
        let fetch: Measurement
        let fetchFloor: Measurement
    }

    /// Measures getting `token` (served as `name` from a folder of `scratch`) from the cache and
    /// over loopback HTTP.
    static func measure(_ token: [UInt8], scratch: String, stopwatch: Stopwatch) -> Row {
        let lists = scratch + "/lists"
        let cache = scratch + "/cache"
        prepare("the folders of the status benchmark") {
            try FileManager.default.createDirectory(atPath: lists, withIntermediateDirectories: true)
            try Data(token).write(to: URL(fileURLWithPath: lists + "/list.cwt"))
        }
        let server = prepare("the status list server (python3 Tests/Interop/status/status_server.py)") {
            try HelperProcess(["python3", "Tests/Interop/status/status_server.py", "--dir", lists], in: Checkout.root, timeout: 20)
        }
        defer { _ = server.stop() }
        let words = server.firstLine.split(separator: " ")
        guard words.count >= 2, words[0] == "port", let port = Int(words[1]) else {
            fail("the status list server did not start: \(server.firstLine)")
        }
        let uri = "http://127.0.0.1:\(port)/lists/list.cwt"
        var loopback = HTTPFetchLimits()
        loopback.allowsPlainHTTP = true
        let limits = loopback
        let resolver = StatusListResolver(cacheFolder: cache, limits: limits)
        // The first resolution fetches and fills the cache; the timed ones find it fresh.
        _ = blocking { await resolver.resolve([StatusListResolver.List(.statusList, uri: uri)], at: Date()) }
        let name = Hex.encode(DigestAlgorithm.sha256.hash(Array(uri.utf8)))
        let cached = (cache + "/" + name + ".cwt", cache + "/" + name + ".json")
        guard FileManager.default.fileExists(atPath: cached.0) else { fail("the status list was not cached at \(cached.0)") }
        let request = Array("GET /lists/list.cwt HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/statuslist+cwt\r\nConnection: close\r\n\r\n".utf8)
        let benchmarks = [
            Benchmark("from the cache", {
                blocking { await resolver.resolve([StatusListResolver.List(.statusList, uri: uri)], at: Date()) }[uri]
            }, check: { resolution in
                guard let resolution, resolution.source == .cache, case .token(let bytes) = resolution.fetched else { return false }
                return bytes == token
            }),
            Benchmark("read the cached files", {
                (try InputSource.load(cached.0).bytes, try InputSource.load(cached.1).bytes)
            }, check: { $0.0 == token && !$0.1.isEmpty }),
            Benchmark("fetch (MdocHTTP)", {
                try blocking { () -> Result<HTTPFetchResult, HTTPFetchError> in
                    do throws(HTTPFetchError) {
                        return .success(try await BoundedHTTPClient().get(uri, accept: StatusListToken.mediaType, limits: limits))
                    } catch {
                        return .failure(error)
                    }
                }.get()
            }, check: { $0.body == token }),
            Benchmark("GET over a plain socket", { try plainGet(port: port, request: request) },
                      check: { $0.count > token.count && Array($0.suffix(token.count)) == token }),
        ]
        let measured = stopwatch.measure(benchmarks)
        return Row(tokenBytes: token.count, cache: measured[0], cacheFloor: measured[1], fetch: measured[2], fetchFloor: measured[3])
    }

    /// `body`'s result, awaited from this (non-pool) thread.
    static func blocking<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
        let result = NIOLockedValueBox<Value?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            result.withLockedValue { $0 = value }
            done.signal()
        }
        done.wait()
        guard let value = result.withLockedValue({ $0 }) else { fail("an awaited operation gave nothing") }
        return value
    }

    /// The whole response to `request` on 127.0.0.1:`port`, headers included, read to the end.
    static func plainGet(port: Int, request: [UInt8]) throws -> [UInt8] {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkError("socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw BenchmarkError("connect: \(String(cString: strerror(errno)))") }
        guard request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == request.count else {
            throw BenchmarkError("send: \(String(cString: strerror(errno)))")
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            response += buffer[0..<count]
        }
        return response
    }
}
