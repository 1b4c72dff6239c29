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
  // Most messages are of the topic the last one was: its context without the cache's bookkeeping.
  const last = field === 'value' ? lastValue : lastKey
  if (last !== undefined && last.topic === topic) return last
  const byTopic = made[field]
  let ctx = byTopic.get(topic)
  if (ctx === undefined) {
    ctx = new SerializationContext(topic, field)
    byTopic.set(topic, ctx)
  }
  if (field === 'value') lastValue = ctx
  else lastKey = ctx
  return ctx
}

/** The context {@link contextFor} gave last, per field. */
let lastValue: SerializationContext | undefined
let lastKey: SerializationContext | undefined
