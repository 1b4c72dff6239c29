import { isSerdeError, messageOf, type RuleViolationError } from '@x/errors'
import { readErrorKind } from './read-errors.js'

/** Where a consumed message was read: what `x-serde-source` names. */
export interface ConsumedAt {
  topic: string
  partition: number
  /** The message's offset, a decimal string as the clients give it. */
  offset: string
}

/** The longest `x-serde-error-message` written: the error's message, cut there. */
const MAX_MESSAGE = 1000

/**
 * Whether a message that failed with `error` goes to a dead-letter target: only when there is one and the error is
 * poison (`readErrorKind`: a `DeserializationError`, an unknown schema id, a record a data-contract rule refused). An
 * outage (`RegistryConnectionError`, `AuthenticationError`, misuse) is never dead-lettered: it is thrown for the
 * client to retry the message.
 */
export function isDeadLetter(error: unknown, hasTarget: boolean): boolean {
  return hasTarget && readErrorKind(error) === 'poison'
}

/**
 * The headers every adapter adds to a message it sends to a dead-letter topic, beside the message's own:
 * `x-serde-error-code` (the error's code), `x-serde-error-message` (its message, at most 1000 characters),
 * `x-serde-source` (`topic/partition/offset`), and for a record a data-contract rule refused also `x-serde-rule` (the
 * failed rules' names, comma-separated, each once) and `x-serde-rule-mode` (`READ`, `UPGRADE` or `DOWNGRADE`).
 */
export function deadLetterHeaders(error: unknown, at: ConsumedAt): Record<string, string> {
  const headers: Record<string, string> = {
    'x-serde-error-code': String((error as { code?: unknown } | null)?.code),
    'x-serde-error-message': messageOf(error).slice(0, MAX_MESSAGE),
    'x-serde-source': `${at.topic}/${at.partition}/${at.offset}`,
  }
  if (isSerdeError(error, 'RULE_VIOLATION')) {
    const { mode, violations } = error as unknown as RuleViolationError
    headers['x-serde-rule'] = [...new Set(violations.map((violation) => violation.ruleName))].join(',')
    headers['x-serde-rule-mode'] = mode
  }
  return headers
}

/** Where poison messages go: a function handed a letter, or a topic sent to with a producer. */
export type DeadLetterTarget<L, P> = ((letter: L) => Promise<void> | void) | { producer: P; topic: string }

/**
 * Routes a message that failed with `error` to its dead-letter target, when it goes there ({@link isDeadLetter}): a
 * function is handed `letter()`; a topic is sent the message by `send`, with {@link deadLetterHeaders} to add to its
 * own. Returns `undefined` when the message does not go there (the caller throws the error), else what the function
 * or `send` returned, as a Promise.
 */
export function routeDeadLetter<L, P>(
  error: unknown,
  target: DeadLetterTarget<L, P> | undefined,
  letter: () => L,
  at: ConsumedAt,
  send: (producer: P, topic: string, headers: Record<string, string>) => Promise<unknown>,
): Promise<unknown> | undefined {
  if (target === undefined || !isDeadLetter(error, true)) return undefined
  if (typeof target === 'function') return Promise.resolve(target(letter()))
  return send(target.producer, target.topic, deadLetterHeaders(error, at))
}
