// Timing for mdoc-benchmark: repeats operations, one monotonic timestamp pair per call, and
// summarises the samples as median and 90th percentile.

/// One operation to time: a call of `body` whose result `check` must accept.
struct Benchmark {
    /// What is measured, as printed.
    let name: String
    /// Makes one call and returns its duration in microseconds.
    let timedCall: () -> Double

    /// `check` runs on every result outside the timed interval; a `false`, or an error thrown by
    /// `body`, ends the program through `fail`, so that a broken build cannot report a fast time
    /// for wrong work. Releasing the result also happens outside the timed interval.
    init<Result>(_ name: String, _ body: @escaping () throws -> Result, check: @escaping (Result) -> Bool) {
        self.name = name
        let clock = ContinuousClock()
        timedCall = {
            let start = clock.now
            let result: Result
            do {
                result = try body()
            } catch {
                fail("\(name): \(error)")
            }
            let end = clock.now
            guard check(result) else {
                fail("\(name): the operation gave a wrong result, so its time means nothing")
            }
            return Stopwatch.microseconds(end - start)
        }
    }
}

/// The timing of one benchmarked operation.
struct Measurement {
    let name: String
    /// One duration per call, in microseconds, sorted ascending.
    let samples: [Double]

    var iterations: Int { samples.count }

    /// The middle sample (the mean of the two middle samples for an even count).
    var median: Double {
        let middle = samples.count / 2
        return samples.count % 2 == 1 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2
    }

    /// The nearest-rank 90th percentile: 90 % of calls took at most this long.
    var p90: Double {
        let rank = (samples.count * 9 + 9) / 10  // ceil(0.9 × n)
        return samples[max(rank, 1) - 1]
    }
}

/// Times benchmarks with `ContinuousClock` (a monotonic clock, never stepped by NTP).
///
/// The benchmarks are interleaved: after each one is warmed up, the timed calls run in
/// ``rounds`` rounds, each round giving every benchmark its share of calls. On a shared machine
/// whose speed drifts (other processes, frequency scaling), every benchmark then sees the same
/// mix of fast and slow periods, so ratios between them stay meaningful.
struct Stopwatch {
    /// Every operation runs at least this many timed calls (unless `--iterations` says otherwise)...
    static let minimumIterations = 200
    /// ...and for at least this long in total, so that fast operations get many samples.
    static let minimumDuration: Duration = .milliseconds(300)
    /// Untimed calls before timing starts (caches, lazy OpenSSL algorithm fetches, page faults):
    /// at least this long and at least ``minimumWarmUpIterations`` calls.
    static let warmUpDuration: Duration = .milliseconds(50)
    static let minimumWarmUpIterations = 10
    /// The number of rounds the timed calls are spread over.
    static let rounds = 20

    /// A fixed iteration count from `--iterations`, or nil to size each run from its warm-up.
    let fixedIterations: Int?
    /// The fewest timed calls of an operation when the count is sized from the warm-up: the
    /// scaling tables, whose largest inputs take a good part of a second, ask for fewer.
    var minimumIterations = Self.minimumIterations
    /// The fewest untimed calls before timing.
    var minimumWarmUpIterations = Self.minimumWarmUpIterations

    /// Warms up and times every benchmark; the measurements are in the order of `benchmarks`.
    func measure(_ benchmarks: [Benchmark]) -> [Measurement] {
        let iterations = benchmarks.map { benchmark in
            let perCall = warmUp(benchmark)
            if let fixedIterations { return fixedIterations }
            let needed = Self.microseconds(Self.minimumDuration) / max(perCall, 0.001)
            return max(minimumIterations, Int(needed.rounded(.up)))
        }
        var samples = iterations.map { count in
            var array: [Double] = []
            array.reserveCapacity(count)
            return array
        }
        for round in 1...Self.rounds {
            for (index, benchmark) in benchmarks.enumerated() {
                // Calls due by the end of this round: an even share of the total per round.
                let due = iterations[index] * round / Self.rounds
                while samples[index].count < due {
                    samples[index].append(benchmark.timedCall())
                }
            }
        }
        return zip(benchmarks, samples).map { Measurement(name: $0.name, samples: $1.sorted()) }
    }

    /// Runs `benchmark` untimed for the warm-up and returns the mean time per call in microseconds.
    private func warmUp(_ benchmark: Benchmark) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        var calls = 0
        while calls < minimumWarmUpIterations || clock.now - start < Self.warmUpDuration {
            _ = benchmark.timedCall()
            calls += 1
        }
        return Self.microseconds(clock.now - start) / Double(calls)
    }

    static func microseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1_000_000 + Double(attoseconds) / 1_000_000_000_000
    }
}
