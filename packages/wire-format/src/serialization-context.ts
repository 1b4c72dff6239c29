import { describeValue, invalidConfigError } from '@x/errors'
import { isMessageField, MessageField } from './message-field.js'

/** The object form of the {@link SerializationContext} constructor's arguments. */
export interface SerializationContextInit {
  /** The Kafka topic the record is written to or read from. */
  topic: string
  /**
   * Whether the bytes are the record's key or its value.
   * @default MessageField.VALUE
   */
  field?: MessageField
}

/**
 * Where a value goes or comes from: the topic and whether it is the record's key or value. Serializers and
 * deserializers take one per call, so one instance of them serves many topics; artifact resolvers derive the
 * artifact id from it (`orders-value`), and header mode names the id header after `field`.
 *
 * Both forms are the same: `new SerializationContext('orders', MessageField.KEY)` and
 * `new SerializationContext({ topic: 'orders', field: MessageField.KEY })`. Instances are frozen.
 */
export class SerializationContext {
  /** The Kafka topic. */
  readonly topic: string
  /** `'key'` or `'value'`. */
  readonly field: MessageField

  /**
   * @param topic - The Kafka topic.
   * @param field - `MessageField.KEY` or `MessageField.VALUE`; `MessageField.VALUE` when left out.
   * @throws `TypeError` (code `INVALID_CONFIG`) when `topic` is not a string or `field` not `'key'`/`'value'`.
   */
  constructor(topic: string, field?: MessageField)
  /**
   * @param init - `{ topic, field? }`; `field` is `MessageField.VALUE` when left out.
   * @throws `TypeError` (code `INVALID_CONFIG`) when `topic` is not a string or `field` not `'key'`/`'value'`.
   */
  constructor(init: SerializationContextInit)
  constructor(topicOrInit: string | SerializationContextInit, field?: MessageField) {
    let topic: unknown = topicOrInit
    let chosen: unknown = field
    if (typeof topicOrInit === 'object' && topicOrInit !== null) {
      if (field !== undefined) {
        throw invalidConfigError(
          'SerializationContext takes either (topic, field) or ({ topic, field }), not an object and a field',
        )
      }
      topic = topicOrInit.topic
      chosen = topicOrInit.field
    }
    if (typeof topic !== 'string') {
      throw invalidConfigError(`SerializationContext: topic must be a string, got ${describeValue(topic)}`)
    }
    if (chosen === undefined) chosen = MessageField.VALUE
    if (!isMessageField(chosen)) {
      throw invalidConfigError(
        `SerializationContext: field must be 'key' or 'value' (MessageField), got ${describeValue(chosen)}`,
      )
    }
    this.topic = topic
    this.field = chosen
    if (new.target === SerializationContext) Object.freeze(this)
  }
}
