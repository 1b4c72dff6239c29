import type { MessageHeaders } from '@x/serde-core'

/** The record of a message without headers (most of them): one frozen object, only read. */
const NO_HEADERS: MessageHeaders = Object.freeze({})

/**
 * A message's headers as the record the contract reads, from what a client hands over:
 *
 * - a record (KafkaJS, Confluent's KafkaJS API): returned as it is; a repeated header is an array of its values;
 * - `[name, value]` pairs (the raw record of `@platformatic/kafka`): every value kept, a repeated header becoming an
 *   array, so that a repeated id header with different ids is refused as everywhere;
 * - a `Map` (what `@platformatic/kafka` builds from the pairs for its deserializers): one value per name, the last
 *   one of a repeated header; a repeat cannot be seen there, so a client should hand over the pairs when it has them.
 *
 * Names that are Buffers are read as UTF-8; values stay Buffers or strings; a value of another kind (a `null`) is
 * left out. No headers give one shared, frozen, empty record.
 */
export function headerRecord(headers: unknown): MessageHeaders {
  if (headers === undefined || headers === null) return NO_HEADERS
  if (!(headers instanceof Map) && !Array.isArray(headers)) return headers as MessageHeaders
  if ((headers instanceof Map ? headers.size : headers.length) === 0) return NO_HEADERS
  const record: MessageHeaders = {}
  for (const [name, value] of headers as Iterable<[unknown, unknown]>) {
    const key = Buffer.isBuffer(name) ? name.toString('utf8') : String(name)
    if (!Buffer.isBuffer(value) && typeof value !== 'string') continue
    const seen = record[key]
    if (seen === undefined) record[key] = value
    else if (Array.isArray(seen)) seen.push(value)
    else record[key] = [seen, value]
  }
  return record
}
