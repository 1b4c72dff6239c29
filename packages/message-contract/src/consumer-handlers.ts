import {
  type ConsumedRecord,
  decodeConsumed,
  decodeConsumedNow,
  type LocatedRecord,
} from './consumed-messages.js'
import { withDecoded } from './decoded-payload.js'
import type { MessageContract } from './message-contract.js'

/**
 * What a wrapper does with a message it could not decode: route it to a dead-letter target, or throw the error (an
 * outage, or poison without a target). A rejection stops the wrapper at that message.
 */
export type FailedMessageHandler<M> = (
  error: unknown,
  topic: string,
  partition: number,
  message: M,
) => Promise<void>

/**
 * An `eachMessage` handler for KafkaJS-shaped clients (`{ topic, partition, message, … }`): decodes each message and
 * calls `handler` with the payload and `decoded` added ({@link withDecoded}); a message that cannot be decoded goes to
 * `failed`. For a message decoded at once (its ids cached) it returns the handler's own Promise (a handler that
 * throws gives a rejected one), with no Promise or turn of the microtask queue added; for one that waits for a lookup
 * or fails, a Promise of its own.
 */
export function eachMessageOf<V, K, H extends object, M extends ConsumedRecord<H>, P extends object>(
  contract: MessageContract<V, K>,
  handler: (payload: P & { decoded: LocatedRecord<V, K, H> }) => Promise<void>,
  failed: FailedMessageHandler<M>,
): (payload: P & { topic: string; partition: number; message: M }) => Promise<void> {
  // A message that needs a lookup first.
  const later = async (payload: P & { topic: string; partition: number; message: M }) => {
    let decoded: LocatedRecord<V, K, H>
    try {
      decoded = await decodeConsumed(contract, payload.topic, payload.partition, payload.message)
    } catch (error) {
      await failed(error, payload.topic, payload.partition, payload.message)
      return
    }
    await handler(withDecoded(payload, decoded))
  }
  return (payload) => {
    let decoded: LocatedRecord<V, K, H> | undefined
    try {
      decoded = decodeConsumedNow(contract, payload.topic, payload.partition, payload.message)
    } catch (error) {
      return failed(error, payload.topic, payload.partition, payload.message)
    }
    if (decoded === undefined) return later(payload)
    return settled(handler, withDecoded(payload, decoded))
  }
}

/**
 * An `eachBatch` handler for KafkaJS-shaped clients: decodes the batch's messages in order and calls `handler` once
 * with those it decoded; a message that cannot be decoded goes to `failed`. A `failed` that rejects stops decoding at
 * its message: `handler` gets the messages before it, then the rejection is thrown for the client to retry the batch.
 */
export function eachBatchOf<V, K, H extends object, M extends ConsumedRecord<H>, P extends object>(
  contract: MessageContract<V, K>,
  handler: (payload: P & { decoded: LocatedRecord<V, K, H>[] }) => Promise<void>,
  failed: FailedMessageHandler<M>,
): (payload: P & { batch: { topic: string; partition: number; messages: M[] } }) => Promise<void> {
  return async (payload) => {
    const { topic, partition, messages } = payload.batch
    const decoded: LocatedRecord<V, K, H>[] = []
    let stop: { error: unknown } | undefined
    for (const message of messages) {
      try {
        // A message whose ids are cached is decoded at once, without awaiting a Promise per message.
        decoded.push(
          decodeConsumedNow(contract, topic, partition, message) ??
            (await decodeConsumed(contract, topic, partition, message)),
        )
      } catch (error) {
        try {
          await failed(error, topic, partition, message)
        } catch (thrown) {
          stop = { error: thrown }
          break
        }
      }
    }
    await handler({ ...payload, decoded })
    if (stop !== undefined) throw stop.error
  }
}

/**
 * What `handler(payload)` returns, as a Promise: its own when it returns a native one; a throw becomes a rejection and
 * anything else is resolved, as an `async` wrapper would give.
 */
function settled<P>(handler: (payload: P) => Promise<void>, payload: P): Promise<void> {
  try {
    const result = handler(payload)
    return result instanceof Promise ? result : Promise.resolve(result)
  } catch (error) {
    return Promise.reject(error)
  }
}
