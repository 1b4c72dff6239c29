import { describeValue, invalidConfigError, messageOf, ResolverError } from '@x/errors'
import type { SerializationContext } from '@x/wire-format'

/**
 * Derives the artifact id of a message from its context (topic and field), like Apicurio's Java
 * `ArtifactReferenceResolverStrategy`. Either a function or an object with a `resolve` method (the ready-made
 * strategies are such classes). It is asked on every call, so one serializer can serve many topics; it must
 * return a non-empty string and should be cheap (no I/O).
 *
 * @example
 * ```ts
 * const byTopic: ArtifactResolver = (ctx) => `${ctx.topic}-${ctx.field}`
 * const same: ArtifactResolver = new TopicIdStrategy()
 * ```
 */
export type ArtifactResolver =
  | ((ctx: SerializationContext) => string)
  | { resolve(ctx: SerializationContext): string }

/**
 * `<topic>-value` / `<topic>-key`: Apicurio's default strategy (Java `TopicIdStrategy`), e.g. `orders-value`.
 */
export class TopicIdStrategy {
  /** @returns `${ctx.topic}-${ctx.field}` */
  resolve(ctx: SerializationContext): string {
    return `${ctx.topic}-${ctx.field}`
  }
}

/** `<topic>`, whatever the field (Java `SimpleTopicIdStrategy`), e.g. `orders`. */
export class SimpleTopicIdStrategy {
  /** @returns `ctx.topic` */
  resolve(ctx: SerializationContext): string {
    return ctx.topic
  }
}

/** @internal Checks a record name given to a record strategy. */
function checkRecordName(recordName: unknown, strategy: string): string {
  if (typeof recordName !== 'string' || recordName === '') {
    throw invalidConfigError(`${strategy} needs a non-empty record name, got ${describeValue(recordName)}`)
  }
  return recordName
}

/**
 * The full name of a record, whatever the topic (Java `QualifiedRecordIdStrategy`), e.g. `com.example.Order`. Each
 * format package exports a subclass that takes a schema and finds its record name (Avro: the full name; JSON Schema:
 * the `title`; Protobuf: the message's full name).
 */
export class QualifiedRecordIdStrategy {
  readonly #recordName: string

  /**
   * @param recordName - The record's full name, which is the artifact id.
   * @throws `TypeError` (code `INVALID_CONFIG`) for an empty name.
   */
  constructor(recordName: string) {
    this.#recordName = checkRecordName(recordName, new.target.name)
  }

  /** @returns the record's full name, e.g. `com.example.Order` */
  resolve(_ctx: SerializationContext): string {
    return this.#recordName
  }
}

/**
 * `<topic>-<full name>` of a record, e.g. `orders-com.example.Order`. Each format package exports a subclass that
 * takes a schema.
 *
 * Note: Apicurio's Java `TopicRecordIdStrategy` puts the record's namespace in the group id and uses
 * `<topic>-<simple name>` as the artifact id; this strategy keeps the client's group and the full name, as
 * Confluent's `TopicRecordNameStrategy` does.
 */
export class TopicRecordIdStrategy {
  readonly #suffix: string

  /**
   * @param recordName - The record's full name, which follows the topic.
   * @throws `TypeError` (code `INVALID_CONFIG`) for an empty name.
   */
  constructor(recordName: string) {
    this.#suffix = `-${checkRecordName(recordName, new.target.name)}`
  }

  /** @returns `${ctx.topic}-${fullName}`, e.g. `orders-com.example.Order` */
  resolve(ctx: SerializationContext): string {
    return ctx.topic + this.#suffix
  }
}

/** A resolver in one callable shape: what the normalized serializer and deserializer options hold. */
export type ResolveFunction = (ctx: SerializationContext) => string

/**
 * @internal Checks a resolver option at construction and turns it into one function that throws `ResolverError`
 * when the resolver throws or returns anything but a non-empty string.
 */
export function toResolveFunction(resolver: unknown, option = 'artifactResolver'): ResolveFunction {
  let call: (ctx: SerializationContext) => unknown
  if (typeof resolver === 'function') {
    call = resolver as (ctx: SerializationContext) => unknown
  } else if (
    typeof resolver === 'object' &&
    resolver !== null &&
    typeof (resolver as { resolve?: unknown }).resolve === 'function'
  ) {
    const target = resolver as { resolve(ctx: SerializationContext): unknown }
    call = (ctx) => target.resolve(ctx)
  } else {
    throw invalidConfigError(
      `${option} must be a function (ctx) => string or an object with a resolve(ctx) method, got ${
        resolver === null ? 'null' : typeof resolver
      }`,
    )
  }
  return (ctx) => {
    let artifactId: unknown
    try {
      artifactId = call(ctx)
    } catch (cause) {
      throw new ResolverError(`${option} threw for topic '${topicOf(ctx)}': ${messageOf(cause)}`, { cause })
    }
    if (typeof artifactId !== 'string' || artifactId === '') {
      throw new ResolverError(
        `${option} must return a non-empty string, got ${describeValue(artifactId)} for topic '${topicOf(ctx)}'`,
      )
    }
    return artifactId
  }
}

function topicOf(ctx: unknown): string {
  const topic = (ctx as { topic?: unknown } | undefined)?.topic
  return typeof topic === 'string' ? topic : String(topic)
}
