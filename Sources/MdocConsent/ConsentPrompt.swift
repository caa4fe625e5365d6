import MdocFiles
import MdocPosix
import MdocPresentation
import MdocSession
import MdocTerminal
import MdocText

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Asks the holder, line by line, which requested elements to release (ISO/IEC 18013-5 6.3.2.4,
/// 8.3.2.1.2.1): shows the request, then `[a]ll / [n]one / [c]hoose`, and with `choose` a yes/no
/// question per element the holder has.
///
/// Lines come from an injectable source and text goes to an injectable sink, so the dialogue is
/// testable; ``standard()`` uses standard input and output. The end of input at any point
/// releases nothing, and so does an answer still unrecognised after ``maximumAttempts`` tries.
///
/// Not `Sendable`: it holds the caller's (non-Sendable) line source and sink.
package struct ConsentPrompt {
    /// How often a question is asked again after an unrecognised answer before the prompt gives
    /// up and releases nothing: enough for typing mistakes, while input that never answers
    /// (a stream of garbage) cannot keep the session waiting.
    package static let maximumAttempts = 5

    private let readLine: () -> String?
    private let sink: (String) -> Void
    private let isCancelled: () -> Bool

    /// A prompt reading lines (without their line ending; `nil` at the end of input) from
    /// `readLine` and writing text to `write`; the text is ``TerminalText``, every part of it
    /// that the reader chose escaped. When `isCancelled` says so after `readLine` gave `nil`,
    /// the answer is no longer wanted: the prompt stops without another word and releases
    /// nothing.
    package init(readLine: @escaping () -> String?, write: @escaping (String) -> Void,
                isCancelled: @escaping () -> Bool = { false }) {
        self.readLine = readLine
        self.sink = write
        self.isCancelled = isCancelled
    }

    /// A prompt on `lines` (standard input by default) and `output`, standard output unless the
    /// program keeps that for JSON (written unbuffered, so each question shows before the answer
    /// is read), that stops when `cancellation` is cancelled.
    package static func standard(
        output: ProgramOutput = .standardOutput, lines: InputLines = .standardInput,
        cancellation: InputLines.Cancellation = InputLines.Cancellation()
    ) -> ConsentPrompt {
        ConsentPrompt(
            readLine: { lines.readLine(until: cancellation) },
            write: { FileDescriptorWriter.writeAll($0, to: output.fileDescriptor) },
            isCancelled: { cancellation.isCancelled })
    }

    /// Asks on `output` and `lines` for `request` on a thread of its own, away from the
    /// cooperative pool, while the calling task waits; cancelling the task stops the prompt at
    /// once (the reader left), and nothing is released.
    package static func ask(
        _ request: PresentationRequest, output: ProgramOutput = .standardOutput, lines: InputLines = .standardInput
    ) async -> ElementSelection {
        let cancellation = InputLines.Cancellation()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ElementSelection, Never>) in
                do throws(SystemCall.Errno) {
                    try DetachedThread.start {
                        continuation.resume(returning: standard(output: output, lines: lines, cancellation: cancellation).ask(request))
                    }
                } catch {
                    FileDescriptorWriter.writeAll(
                        "\nCannot ask: the system has no thread for the question (errno \(error.code)); nothing will be sent.\n",
                        to: output.fileDescriptor)
                    continuation.resume(returning: .none)
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// `true` when standard input and `output` are both terminals: a person sees the question
    /// and types the answer. Otherwise answers come from whatever standard input is (a pipe, a
    /// file, nothing), and its end refuses everything.
    package static func canAsk(output: ProgramOutput) -> Bool {
        FileDescriptorWriter.isTerminal(STDIN_FILENO) && output.isTerminal
    }

    /// Shows `request` and returns what the holder approves; only elements the holder has can
    /// be approved.
    package func ask(_ request: PresentationRequest) -> ElementSelection {
        write(RequestPresentationText.render(request))
        let available = request.documents.filter(\.isAvailable).flatMap { document in
            document.elements.filter(\.isAvailable).map { (document, $0) }
        }
        guard !available.isEmpty else {
            write("\nYou hold none of the requested elements; nothing will be sent.\n")
            return .none
        }
        guard let choice = question("\nRelease [a]ll \(available.count), [n]one, or [c]hoose? ",
                                    answers: [("all", ["a", "all"]), ("none", ["n", "none"]), ("choose", ["c", "choose"])]) else {
            return isCancelled() ? .none : refuse()
        }
        switch choice {
        case "all":
            write(available.count == 1 ? "Releasing the 1 element.\n" : "Releasing all \(available.count) elements.\n")
            return request.allAvailable
        case "none":
            return refuse()
        default:
            var selection = ElementSelection()
            for (document, element) in available {
                guard let answer = question("  \(RequestPresentationText.name(document.docType)): release \(RequestPresentationText.elementText(element))? [y/n] ",
                                            answers: [("yes", ["y", "yes"]), ("no", ["n", "no"])]) else {
                    return isCancelled() ? .none : refuse()
                }
                if answer == "yes" {
                    selection.insert(docType: document.docType, nameSpace: element.nameSpace, identifier: element.identifier)
                }
            }
            let count = selection.count
            write("Releasing \(count) of \(TerminalText(count: available.count, "element")).\n")
            return selection
        }
    }

    /// Asks `prompt` until a line is one of the spellings of an answer (case-insensitive,
    /// surrounding whitespace ignored) and returns that answer; `nil` at the end of input or
    /// after ``maximumAttempts`` misses, and once cancelled. `answers` are in the order the prompt names them, and
    /// a miss lists them in that order.
    private func question(_ prompt: TerminalText, answers: [(answer: String, spellings: [String])]) -> String? {
        for attempt in 1...Self.maximumAttempts {
            write(prompt)
            guard let line = readLine() else {
                if !isCancelled() { write("\n") }
                return nil
            }
            let typed = line.trimmingASCIIWhitespace().lowercased()
            if let match = answers.first(where: { $0.spellings.contains(typed) }) { return match.answer }
            let choices = answers.map(\.answer).joined(separator: ", ")
            write(attempt < Self.maximumAttempts ? "Please answer \(choices).\n" : "No valid answer.\n")
        }
        return nil
    }

    private func write(_ text: TerminalText) {
        sink(text.description)
    }

    private func refuse() -> ElementSelection {
        write("Releasing nothing.\n")
        return .none
    }
}

@available(*, unavailable)
extension ConsentPrompt: Sendable {}
