import Foundation
import Testing

/// `mdoc-benchmark` runs that check what it prints, not the figures, which depend on the machine.
@Suite struct BenchmarkCommandTests {
    @Test("scaling over one row of each table says its slopes are n/a, in text and as JSON nulls")
    func scalingOverOneRow() async throws {
        let arguments = ["scaling", "--elements", "1", "--sizes", "15000", "--iterations", "1"]
        let text = try await ProgramRunner.run("mdoc-benchmark", arguments, timeout: 120)
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("per element (least squares): verification n/a µs, its digest n/a µs: n/a×"))
        #expect(text.standardOutput.contains("peak memory above the base per input byte (least squares): n/a (target ≤ 1.5: not measured)"))
        #expect(text.standardOutput.contains("n/a× (target ≤ 3.0×: not measured)"), "\(text.standardOutput)")

        let json = try await ProgramRunner.run("mdoc-benchmark", arguments + ["--json"], timeout: 120)
        #expect(json.status == 0, "\(json.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        let perElement = try #require(object?["perElement"] as? [String: Any])
        #expect(perElement["verifyMicroseconds"] is NSNull)
        #expect(perElement["ratio"] is NSNull)
        #expect(perElement["met"] is NSNull)
        #expect((object?["byElementCount"] as? [Any])?.count == 1)
    }

    @Test("verify marks each target its figure misses, in text and as JSON")
    func verifyMarksMissedTargets() async throws {
        let text = try await ProgramRunner.run("mdoc-benchmark", ["verify", "--iterations", "3"], timeout: 120)
        #expect(text.status == 0, "\(text.standardError)")
        // "warm / floor: 1.17×   (target ≤ 1.2×)", or "(target ≤ 1.2×: MISSED)" above it.
        let lines = text.standardOutput.split(separator: "\n").filter { $0.contains("(target ≤ ") }
        #expect(lines.count == 4, "\(text.standardOutput)")
        for line in lines.filter({ $0.contains(" / ") }) {
            let figures = line.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
            let (value, bound) = (try #require(figures.first), try #require(figures.last))
            // The printed figure is rounded: one within its last digit of the bound says nothing.
            if abs(value - bound) > 0.01 {
                #expect(line.contains(": MISSED") == (value > bound), "\(line)")
            }
        }

        let json = try await ProgramRunner.run("mdoc-benchmark", ["verify", "--iterations", "3", "--json"], timeout: 120)
        #expect(json.status == 0, "\(json.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let targets = try #require(object["targets"] as? [String: Double])
        let met = try #require(object["targetsMet"] as? [String: Bool])
        #expect(Set(met.keys) == Set(targets.keys))
        for (name, bound) in targets {
            let value = try #require(object[name] as? Double)
            if abs(value - bound) > 0.001 {
                #expect(met[name] == (value <= bound), "\(name): \(value) against \(bound)")
            }
        }
    }

    @Test("status times a token check beside its ES256 and zlib floor for each list size, in text and as JSON")
    func status() async throws {
        let text = try await ProgramRunner.run("mdoc-benchmark", ["status", "--iterations", "2"], timeout: 120)
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("16384 entries") && text.standardOutput.contains("1048576 entries"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("token check / floor:"), "\(text.standardOutput)")

        let json = try await ProgramRunner.run("mdoc-benchmark", ["status", "--iterations", "2", "--json"], timeout: 120)
        #expect(json.status == 0, "\(json.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        let rows = try #require(object?["status"] as? [[String: Any]])
        #expect(rows.map { $0["entries"] as? Int } == [16384, 1_048_576])
        #expect(rows.allSatisfy { ($0["floorMicroseconds"] as? Double ?? 0) > 0 })
    }

    @Test("online times opening and verifying an Annex C response beside the HPKE and verification floors, in text and as JSON")
    func online() async throws {
        let text = try await ProgramRunner.run("mdoc-benchmark", ["online", "--iterations", "2"], timeout: 120)
        #expect(text.status == 0, "\(text.standardError)")
        for line in ["open (HPKE)", "AES-128-GCM open", "DeviceSignature x 1", "open / HPKE floor", "open + verify / both floors:"] {
            #expect(text.standardOutput.contains(line), "\(line) is missing from \(text.standardOutput)")
        }

        let json = try await ProgramRunner.run("mdoc-benchmark", ["online", "--iterations", "2", "--json"], timeout: 120)
        #expect(json.status == 0, "\(json.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        let online = try #require(object?["online"] as? [String: Any])
        #expect(online["ciphertextBytes"] as? Int == (online["responseBytes"] as? Int).map { $0 + 16 })
        for figure in ["openMedianMicroseconds", "hpkeFloorMicroseconds", "verifyMedianMicroseconds", "verificationFloorMicroseconds"] {
            #expect((online[figure] as? Double ?? 0) > 0, "\(figure): \(json.standardOutput)")
        }
    }

    @Test("presentations runs whole presentations in one process and says whether its memory grew past the bound")
    func presentations() async throws {
        let short = try await ProgramRunner.run("mdoc-benchmark", ["presentations", "--soak", "20"], timeout: 120)
        #expect(short.status == 0, "\(short.standardError)")
        #expect(short.standardOutput.contains("presentations: 20 of 20: RSS "), "\(short.standardOutput)")
        #expect(short.standardOutput.contains("presentations: warmed up after 10 "), "\(short.standardOutput)")
        #expect(short.standardOutput.hasSuffix("presentations: 20 presented; too few to judge growth (2000 sessions and a first half of 4.0 seconds are needed)\n"),
                "\(short.standardOutput)")

        let none = try await ProgramRunner.run("mdoc-benchmark", ["presentations", "--soak", "0"], timeout: 120)
        #expect(none.status == 64)
    }

    @Test("sessions runs whole sessions through the state machines, each verified, and reports memory each tenth")
    func sessions() async throws {
        let run = try await ProgramRunner.run("mdoc-benchmark", ["sessions", "--soak", "10"], timeout: 120)
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n")
        #expect(lines.count == 11, "\(run.standardOutput)")
        #expect(lines.last?.hasPrefix("sessions: 10 of 10: RSS ") == true, "\(run.standardOutput)")

        let none = try await ProgramRunner.run("mdoc-benchmark", ["sessions", "--soak", "0"], timeout: 120)
        #expect(none.status == 64)
    }

    @Test("nfc presents by tap and NFC retrieval with extended and short APDUs, each verified, beside the state machines alone")
    func nfc() async throws {
        let run = try await ProgramRunner.run("mdoc-benchmark", ["nfc", "--sessions", "3", "--json"], timeout: 120)
        #expect(run.status == 0, "\(run.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let nfc = try #require(object["nfc"] as? [String: Any])
        #expect((nfc["floorMedianMicroseconds"] as? Double ?? 0) > 0)
        let runs = try #require(nfc["runs"] as? [[String: Any]])
        #expect(runs.map { $0["apdus"] as? String } == ["extended", "short"])
        let extended = try #require(runs.first)
        let short = try #require(runs.last)
        for figures in runs {
            #expect(figures["sessions"] as? Int == 3)
            #expect((figures["tapCommands"] as? Int ?? 0) >= 4, "SELECT, the capability container, the NDEF length and message: \(figures)")
            // A ratio of two medians of wall times: positive, whatever the machine is doing.
            #expect((figures["sessionOverFloor"] as? Double ?? 0) > 0)
        }
        // The response (about 20 KB) takes one extended APDU exchange, but many short ones.
        #expect((short["retrievalCommands"] as? Int ?? 0) > (extended["retrievalCommands"] as? Int ?? 0) * 10, "\(runs)")

        let text = try await ProgramRunner.run("mdoc-benchmark", ["nfc", "--sessions", "2"], timeout: 120)
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("tap + retrieval / the session's state machines alone:"))
        #expect(try await ProgramRunner.run("mdoc-benchmark", ["nfc", "--sessions", "0"], timeout: 120).status == 64)
    }

    @Test("online --soak and status --soak repeat one answer opened and verified, or one status checked, and report memory each tenth",
          arguments: ["online", "status"])
    func soak(_ command: String) async throws {
        let run = try await ProgramRunner.run("mdoc-benchmark", [command, "--soak", "10"], timeout: 120)
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n")
        #expect(lines.count == 11, "\(run.standardOutput)")
        #expect(lines.last?.hasPrefix("\(command): 10 of 10: RSS ") == true, "\(run.standardOutput)")

        for refused in [["--soak", "0"], ["--soak", "10", "--json"], ["--soak", "10", "--iterations", "5"]] {
            #expect(try await ProgramRunner.run("mdoc-benchmark", [command] + refused, timeout: 120).status == 64, "\(refused)")
        }
    }
}
