import Foundation

/// Runs of the programs with a home of their own for the credential store and trust stores
/// (`XDG_DATA_HOME`, `XDG_CONFIG_HOME`), their own `sim` namespace and `NO_COLOR` unset, besides
/// ``BackgroundProgram/neutralEnvironment``.
struct IsolatedRun {
    /// The folder holding `data/` and `config/`; removed by ``remove()``.
    let home: String
    /// The environment every program of this run gets.
    let environment: [String: String]

    /// A fresh home; `extra` is added to the environment.
    init(_ extra: [String: String] = [:]) throws {
        home = try LiveSession.temporaryFolder()
        environment = [
            "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config", "XDG_CACHE_HOME": home + "/cache", "NO_COLOR": "",
            "MDOC_SIM_NAMESPACE": "isolated-\(UUID().uuidString)",
        ].merging(extra) { _, new in new }
    }

    /// The credential store of this home.
    var credentialStore: String { home + "/data/swift-mdoc/credentials" }
    /// The IACA trust store of this home.
    var issuerTrustStore: String { home + "/config/swift-mdoc/trust/iaca" }
    /// The reader-root trust store of this home.
    var readerTrustStore: String { home + "/config/swift-mdoc/trust/readers" }

    /// Removes the home.
    func remove() {
        try? FileManager.default.removeItem(atPath: home)
    }

    /// Runs `program` with `arguments` to its end; `extra` is added to the environment.
    func run(
        _ program: String, _ arguments: [String], input: String? = nil, extra: [String: String] = [:],
        directory: String = ProgramRunner.repositoryRoot
    ) async throws -> ProgramRunner.Result {
        let running = try start(program, arguments, extra: extra, directory: directory)
        if let input { running.send(input) }
        running.closeInput()
        return await running.wait(timeout: LiveSession.waitTimeout)
    }

    /// Runs a tool found on `PATH` (such as `script`) with `arguments` to its end, through
    /// `/usr/bin/env`; `extra` is added to the environment.
    func tool(_ name: String, _ arguments: [String], extra: [String: String] = [:]) async throws -> ProgramRunner.Result {
        let running = try BackgroundProgram(
            executable: URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, environment: environment.merging(extra) { _, new in new })
        running.closeInput()
        return await running.wait(timeout: LiveSession.waitTimeout)
    }

    /// Starts `program` with `arguments` beside the test.
    func start(
        _ program: String, _ arguments: [String], extra: [String: String] = [:], directory: String = ProgramRunner.repositoryRoot
    ) throws -> BackgroundProgram {
        try BackgroundProgram(program, arguments, environment: environment.merging(extra) { _, new in new }, directory: directory)
    }

    /// A live session: `mdoc-holder HOLDER` (standard input `holderInput`, then closed) and, once
    /// it printed its mdoc: URI and `beforeReader` ran, `mdoc-reader request URI READER`, both to
    /// their end.
    func session(
        holder holderArguments: [String], reader readerArguments: [String], holderInput: String? = nil,
        directory: String = ProgramRunner.repositoryRoot, beforeReader: () throws -> Void = {}
    ) async throws -> (holder: ProgramRunner.Result, reader: ProgramRunner.Result) {
        let holder = try start(
            "mdoc-holder", ["present"] + holderArguments + ["--timeout", "\(LiveSession.programTimeout)"],
            directory: directory)
        if let holderInput { holder.send(holderInput) }
        holder.closeInput()
        // With --json the URI comes in the engagement object.
        let json = holderArguments.contains("--json")
        let line = await holder.line(
            startingWith: json ? #"{"schemaVersion":1,"type":"engagement""# : "mdoc:", number: 1, timeout: LiveSession.waitTimeout)
        let engagement = json ? line.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } : nil
        guard let uri = json ? engagement?["uri"] as? String : line else {
            let result = await holder.terminate()
            throw LiveSessionError("mdoc-holder printed no mdoc: URI (status \(result.status)): \(result.standardError)")
        }
        try beforeReader()
        let reader = try await run(
            "mdoc-reader", ["request", uri] + readerArguments + ["--timeout", "\(LiveSession.programTimeout)"], directory: directory)
        if !reader.standardError.contains("mdoc-reader: connected") {
            return (await holder.terminate(), reader)
        }
        return (await holder.wait(timeout: LiveSession.waitTimeout), reader)
    }
}
