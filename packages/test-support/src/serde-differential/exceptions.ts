/**
 * The cases where the library legitimately answers otherwise than the registry, each with both answers (as
 * `describeOutcome` writes them) and why. The serde-level differential fails on any difference not listed here,
 * and on a listed one whose answers are no longer these.
 */
export interface DifferentialException {
  /** What every path of the library gives. */
  node: string
  /** What the registry's answer comes to. */
  registry: string
  why: string
}

export const DIFFERENTIAL_EXCEPTIONS: Record<string, DifferentialException> = {}
