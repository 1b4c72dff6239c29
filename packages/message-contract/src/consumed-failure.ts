import { recordFailedMessage } from '@x/errors'
import type { MessageField } from '@x/wire-format'

/** A consumed message that failed, as far as its client tells it. */
export interface ConsumedFailure {
  topic: string
  /** The field that failed; by default the one the error records (the contract's reads record it), else `value`. */
  field?: MessageField | undefined
  key: Uint8Array | null | undefined
  value: Uint8Array | null | undefined
  headers: object | undefined
  partition?: number | undefined
  /** The offset, as the client gives it (a decimal string, a bigint or a number). */
  offset?: string | bigint | number | undefined
}

/**
 * Records on a consumed message's error what every adapter's `failedMessageOf` names: the failed field's bytes, the
 * message's headers, topic and field, its partition and offset. An error that names another message already (one
 * lookup's rejection, shared) is recorded on a copy, which is returned: throw what this returns.
 */
export function recordConsumedFailure(error: unknown, failure: ConsumedFailure): unknown {
  const recorded = (error as { context?: { field?: unknown } } | null)?.context?.field
  const field = failure.field ?? (recorded === 'key' ? 'key' : 'value')
  const offset = failure.offset
  return recordFailedMessage(error, {
    payload: (field === 'key' ? failure.key : failure.value) ?? new Uint8Array(0),
    headers: (failure.headers ?? {}) as Record<string, unknown>,
    context: { topic: failure.topic, field },
    partition: failure.partition,
    offset: offset === undefined ? undefined : String(offset),
  })
}
