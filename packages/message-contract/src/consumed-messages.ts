import { recordConsumedFailure } from './consumed-failure.js'
import type { DecodedRecord, MessageContract, PlainKey } from './message-contract.js'

/** A consumed message as KafkaJS-shaped clients hand it over (KafkaJS, Confluent's KafkaJS API). */
export interface ConsumedRecord<H extends object> {
  key: Uint8Array | null
  value: Uint8Array | null
  headers?: H
  offset: string
  timestamp: string
}

/** A consumed message decoded, with where it was consumed. */
export interface LocatedRecord<V, K, H> extends DecodedRecord<V, K, H> {
  topic: string
  partition: number
  offset: string
  timestamp: string
}

/**
 * A consumed message decoded at once when nothing needs the registry (its ids cached, keys without a schema or cached
 * too), built once with where it was consumed; else `undefined` (then {@link decodeConsumed}).
 *
 * @throws what {@link decodeConsumed} rejects with, for a message that cannot be read.
 */
export function decodeConsumedNow<V, K, H extends object>(
  contract: MessageContract<V, K>,
  topic: string,
  partition: number,
  message: ConsumedRecord<H>,
): LocatedRecord<V, K, H> | undefined {
  try {
    const headers = message.headers ?? ({} as H)
    const key = contract.readNow(topic, 'key', message.key, headers)
    if (key === undefined) return undefined
    const value = contract.readNow(topic, 'value', message.value, headers)
    if (value === undefined) return undefined
    return {
      topic,
      partition,
      offset: message.offset,
      timestamp: message.timestamp,
      key: key.value as K | PlainKey | null,
      value: value.value as V | null,
      headers,
      schema: value.schema,
    }
  } catch (error) {
    throw failedAt(error, topic, partition, message)
  }
}

/**
 * A consumed message decoded, looking up what it needs first: its key, its value, its headers, the schema that wrote
 * the value and where it was consumed.
 *
 * @throws (rejects) what `MessageContract#decode` rejects with, recording on it the failed field's bytes, the
 *   headers, topic, field, partition and offset (`failedMessageOf`); an error of another message is copied.
 */
export function decodeConsumed<V, K, H extends object>(
  contract: MessageContract<V, K>,
  topic: string,
  partition: number,
  message: ConsumedRecord<H>,
): Promise<LocatedRecord<V, K, H>> {
  return contract.decode(topic, message.key, message.value, message.headers ?? ({} as H)).then(
    (decoded) => ({
      topic,
      partition,
      offset: message.offset,
      timestamp: message.timestamp,
      key: decoded.key,
      value: decoded.value,
      headers: decoded.headers,
      schema: decoded.schema,
    }),
    (error: unknown) => {
      throw failedAt(error, topic, partition, message)
    },
  )
}

function failedAt(
  error: unknown,
  topic: string,
  partition: number,
  message: ConsumedRecord<object>,
): unknown {
  return recordConsumedFailure(error, {
    topic,
    key: message.key,
    value: message.value,
    headers: message.headers,
    partition,
    offset: message.offset,
  })
}
