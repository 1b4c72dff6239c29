import { type MessageField, SerializationContext } from '@x/wire-format'

/** How many topics' contexts are kept; beyond it the table starts again (a consumer reads few topics). */
const MAX_TOPICS = 1000

const made: Record<MessageField, Map<string, SerializationContext>> = { key: new Map(), value: new Map() }

/**
 * The `SerializationContext` of a topic's keys or values, made once per topic and field: contexts are frozen, so the
 * adapters hand the same one to every message of a topic instead of building and checking a new one each time.
 */
export function contextFor(topic: string, field: MessageField): SerializationContext {
  const byTopic = made[field]
  let ctx = byTopic.get(topic)
  if (ctx === undefined) {
    ctx = new SerializationContext(topic, field)
    if (byTopic.size >= MAX_TOPICS) byTopic.clear()
    byTopic.set(topic, ctx)
  }
  return ctx
}
