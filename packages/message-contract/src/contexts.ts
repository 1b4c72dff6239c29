import { type MessageField, SerializationContext } from '@x/wire-format'
import { LRUCache } from 'lru-cache'

/** How many topics' contexts are kept per field; the least recently used goes first (a consumer reads few topics). */
const MAX_TOPICS = 1000

const made: Record<MessageField, LRUCache<string, SerializationContext>> = {
  key: new LRUCache({ max: MAX_TOPICS }),
  value: new LRUCache({ max: MAX_TOPICS }),
}

/**
 * The `SerializationContext` of a topic's keys or values, made once per topic and field: contexts are frozen, so the
 * adapters hand the same one to every message of a topic instead of building and checking a new one each time.
 */
export function contextFor(topic: string, field: MessageField): SerializationContext {
  const byTopic = made[field]
  let ctx = byTopic.get(topic)
  if (ctx === undefined) {
    ctx = new SerializationContext(topic, field)
    byTopic.set(topic, ctx)
  }
  return ctx
}
