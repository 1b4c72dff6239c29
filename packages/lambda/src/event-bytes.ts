import { headerRecord } from '@x/message-contract'
import type { MessageHeaders } from '@x/serde-core'
import type { KafkaEventRecord } from './kafka-event.js'

/** A record's key bytes: `null` when it has none (absent, `null` or empty: the event cannot tell them apart). */
export function keyBytes(record: KafkaEventRecord): Buffer | null {
  const key = record.key
  return key === undefined || key === null || key === '' ? null : Buffer.from(key, 'base64')
}

/** A record's value bytes: `null` for a tombstone. */
export function valueBytes(record: KafkaEventRecord): Buffer | null {
  const value = record.value
  return value === undefined || value === null ? null : Buffer.from(value, 'base64')
}

/**
 * A record's headers as the message contract reads them: names to Buffers, a repeated header to an array of its
 * values in their order (so that a repeated id header with different ids is refused, as by every client).
 */
export function eventHeaders(record: KafkaEventRecord): MessageHeaders {
  const list = record.headers
  if (list === undefined || list === null || list.length === 0) return headerRecord(undefined)
  const pairs: [string, Buffer][] = []
  for (const header of list) {
    for (const name in header) pairs.push([name, Buffer.from(header[name] as number[])])
  }
  return headerRecord(pairs)
}
