/** The fields of KafkaJS 2's `eachMessage` payload, in the order its runner writes them. */
const KAFKAJS_FIELDS = ['topic', 'partition', 'message', 'heartbeat', 'pause'] as const

/**
 * A client's `eachMessage` payload with `decoded` added: a new object with the payload's fields in their order, as
 * `{ ...payload, decoded }` gives (the client's own object is left as it is). A payload of exactly KafkaJS 2's five
 * fields, in its order, is copied field by field; any other by the spread. On Node 20 the spread of KafkaJS's payload
 * costs about 1.5 µs, as much as decoding an Avro message; field by field it costs about 0.3 µs (Node 22 and 24 spread
 * it in about 0.2 µs).
 */
export function withDecoded<P extends object, D>(payload: P, decoded: D): P & { decoded: D } {
  let index = 0
  for (const key in payload) {
    if (key !== KAFKAJS_FIELDS[index]) return { ...payload, decoded }
    index++
  }
  if (index !== KAFKAJS_FIELDS.length) return { ...payload, decoded }
  const fields = payload as Record<(typeof KAFKAJS_FIELDS)[number], unknown>
  return {
    topic: fields.topic,
    partition: fields.partition,
    message: fields.message,
    heartbeat: fields.heartbeat,
    pause: fields.pause,
    decoded,
  } as unknown as P & { decoded: D }
}
