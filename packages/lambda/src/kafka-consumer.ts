import type { KafkaEvent } from './kafka-event.js'
import {
  type DecodedKafkaRecord,
  KafkaEventDecoder,
  type KafkaEventDecoderOptions,
} from './kafka-event-decoder.js'

/** An event with its records decoded: the event's own fields, and `records` as one list in the event's order. */
export type DecodedKafkaEvent<V, K, E extends KafkaEvent = KafkaEvent> = Omit<E, 'records'> & {
  records: DecodedKafkaRecord<V, K>[]
}

/** What {@link kafkaConsumer} decodes with: a decoder, or its registry client and options. */
export type KafkaConsumerConfig<V, K> =
  | KafkaEventDecoder<V, K>
  | (KafkaEventDecoderOptions<V, K> & { client: unknown })

/**
 * The records of an event decoded, by `decoder` (see {@link KafkaEventDecoder.decode}).
 *
 * @throws (rejects) as `KafkaEventDecoder#decode`.
 */
export function decodeKafkaEvent<V, K>(
  event: KafkaEvent,
  decoder: KafkaEventDecoder<V, K>,
): Promise<DecodedKafkaRecord<V, K>[]> {
  return decoder.decode(event)
}

/**
 * A Lambda handler of Amazon MSK and self-managed Kafka events that decodes every record and calls `handler` with
 * the event, its `records` decoded into one list (poison records dead-lettered and left out when `deadLetter` is
 * given). A record that cannot be decoded otherwise rejects the invocation with its error, before `handler` runs: the
 * event source mapping retries the batch (splitting it when so configured) and, once its retries are used up, sends it
 * to its on-failure destination. Made once per execution environment: the decoder's caches serve warm invocations.
 *
 * @param config - A `KafkaEventDecoder`, or `{ client, ...options }` to make one.
 */
export function kafkaConsumer<
  V = unknown,
  K = never,
  C = unknown,
  R = unknown,
  E extends KafkaEvent = KafkaEvent,
>(
  handler: (event: DecodedKafkaEvent<V, K, E>, context: C) => Promise<R> | R,
  config: KafkaConsumerConfig<V, K>,
): (event: E, context: C) => Promise<R> {
  const decoder =
    config instanceof KafkaEventDecoder ? config : new KafkaEventDecoder<V, K>(config.client, config)
  return async (event, context) => {
    const records = await decoder.decode(event)
    return handler({ ...event, records }, context)
  }
}
