/// Composes ``DocumentVerifierPolicy`` values into one that runs them in the order written,
/// for ``DeviceResponseVerifier/init(trustAnchors:sessionTranscript:readerKey:policy:)``.
///
/// `if`, `if`-`else` and `switch` choose policies when the verifier is made, for example a rule
/// only some deployments want:
///
/// ```swift
/// DeviceResponseVerifier(trustAnchors: iacas) {
///     StandardDocumentPolicy()
///     if configuration.requireIACACountry {
///         IACACountryPolicy()
///     }
/// }
/// ```
///
/// The result is a concrete nesting of the policies' own types, so running it calls each policy
/// directly.
@resultBuilder
public enum DocumentPolicyBuilder {
    /// No policy: a verifier with it records no check and verifies no document.
    public static func buildBlock() -> some DocumentVerifierPolicy {
        Empty()
    }

    /// The first policy of a block.
    public static func buildPartialBlock<Policy: DocumentVerifierPolicy>(first: Policy) -> Policy {
        first
    }

    /// The policies so far, then `next`.
    public static func buildPartialBlock(
        accumulated: some DocumentVerifierPolicy, next: some DocumentVerifierPolicy
    ) -> some DocumentVerifierPolicy {
        Pair(first: accumulated, second: next)
    }

    /// A policy under an `if` without `else`: nothing when the condition was false.
    public static func buildOptional(_ component: (some DocumentVerifierPolicy)?) -> some DocumentVerifierPolicy {
        Conditional(wrapped: component)
    }

    /// The policy of the first branch of an `if`-`else` or `switch`.
    public static func buildEither<First: DocumentVerifierPolicy, Second: DocumentVerifierPolicy>(
        first component: First
    ) -> Either<First, Second> {
        Either(choice: .first(component))
    }

    /// The policy of the second branch of an `if`-`else` or `switch`.
    public static func buildEither<First: DocumentVerifierPolicy, Second: DocumentVerifierPolicy>(
        second component: Second
    ) -> Either<First, Second> {
        Either(choice: .second(component))
    }

    /// A policy under `if #available`.
    public static func buildLimitedAvailability(_ component: some DocumentVerifierPolicy) -> some DocumentVerifierPolicy {
        component
    }

    /// The policies of the two branches of a choice, one of them chosen; part of the builder,
    /// not to be used on its own.
    public struct Either<First: DocumentVerifierPolicy, Second: DocumentVerifierPolicy>: DocumentVerifierPolicy {
        enum Choice: Sendable {
            case first(First)
            case second(Second)
        }

        let choice: Choice

        /// Runs the chosen policy.
        public func evaluate(_ verification: inout DocumentVerification) {
            switch choice {
            case .first(let policy): policy.evaluate(&verification)
            case .second(let policy): policy.evaluate(&verification)
            }
        }
    }

    private struct Empty: DocumentVerifierPolicy {
        func evaluate(_ verification: inout DocumentVerification) {}
    }

    private struct Pair<First: DocumentVerifierPolicy, Second: DocumentVerifierPolicy>: DocumentVerifierPolicy {
        let first: First
        let second: Second

        func evaluate(_ verification: inout DocumentVerification) {
            first.evaluate(&verification)
            second.evaluate(&verification)
        }
    }

    private struct Conditional<Wrapped: DocumentVerifierPolicy>: DocumentVerifierPolicy {
        let wrapped: Wrapped?

        func evaluate(_ verification: inout DocumentVerification) {
            wrapped?.evaluate(&verification)
        }
    }
}
