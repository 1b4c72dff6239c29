/** The exit codes of `x-serde`, as `--help` documents them. */
export const EXIT = Object.freeze({
  /** Done. */
  ok: 0,
  /**
   * A check failed: a schema the registry would refuse, a lockfile the registry has moved from, a message that did
   * not decode (consume) or does not match its schema (produce).
   */
  checkFailed: 1,
  /** The command line was wrong (an unknown option, a missing argument, unreadable input). */
  usage: 2,
  /** The registry (or the token endpoint), or the Kafka brokers, could not be used. */
  unreachable: 3,
})

export type ExitCode = (typeof EXIT)[keyof typeof EXIT]
