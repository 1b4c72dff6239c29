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

/** For format packages: how the record strategies of a format read a record name from the schema they are given. */
export interface RecordNameReader {
  /** What the strategies need, for messages: `a JSON Schema with a non-empty 'title' (its record name)`. */
  readonly wanted: string
  /** The record name of a parsed schema, or undefined when it has none. */
  nameOf(schema: unknown): string | undefined
}

/**
 * The record name that a record strategy of a format (its subclass of the strategies below) takes from the schema it
 * is given, as an object or its JSON text. A `TypeError` (code `INVALID_CONFIG`) naming the strategy and
 * what it needs when the text is not JSON or the schema has no record name.
 */
function recordNameOfSchema(schema: unknown, strategy: string, reader: RecordNameReader): string {
  let parsed = schema
  if (typeof schema === 'string') {
    try {
      parsed = JSON.parse(schema)
    } catch (error) {
      throw invalidConfigError(
        `${strategy} needs ${reader.wanted} as an object or its JSON text, got text that is not JSON (${messageOf(error)})`,
        error,
      )
    }
  }
  const name = reader.nameOf(parsed)
  if (name === undefined || name === '') {
    throw invalidConfigError(`${strategy} needs ${reader.wanted}, got ${describeValue(parsed)}`)
  }
  return name
}

/** @internal The record name given to a record strategy, or read from its schema by the format's `reader`. */
function recordNameFrom(given: unknown, strategy: string, reader: RecordNameReader | undefined): string {
  if (reader !== undefined) return recordNameOfSchema(given, strategy, reader)
  if (typeof given !== 'string' || given === '') {
    throw invalidConfigError(`${strategy} needs a non-empty record name, got ${describeValue(given)}`)
  }
  return given
}

/**
 * The full name of a record, whatever the topic (Java `QualifiedRecordIdStrategy`), e.g. `com.example.Order`. Each
 * format package exports a subclass that takes a schema and finds its record name (Avro: the full name; JSON Schema:
 * the `title`; Protobuf: the message's full name).
 */
export class QualifiedRecordIdStrategy {
  readonly #recordName: string

  /**
   * How a format's subclass reads the record name from the schema it is given (set by the subclass); without one
   * (this class itself), the argument is the record name.
   */
  static readonly recordNames: RecordNameReader | undefined = undefined

  /**
   * @param recordNameOrSchema - The record's full name, which is the artifact id; for a format's subclass, the
   *   schema (an object or its JSON text) whose record name it is.
   * @throws `TypeError` (code `INVALID_CONFIG`) for an empty name, or a schema without a record name.
   */
  constructor(recordNameOrSchema: string | object) {
    this.#recordName = recordNameFrom(recordNameOrSchema, new.target.name, new.target.recordNames)
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

  /** As {@link QualifiedRecordIdStrategy.recordNames}. */
  static readonly recordNames: RecordNameReader | undefined = undefined

  /**
   * @param recordNameOrSchema - The record's full name, which follows the topic; for a format's subclass, the
   *   schema (an object or its JSON text) whose record name it is.
   * @throws `TypeError` (code `INVALID_CONFIG`) for an empty name, or a schema without a record name.
   */
  constructor(recordNameOrSchema: string | object) {
    this.#suffix = `-${recordNameFrom(recordNameOrSchema, new.target.name, new.target.recordNames)}`
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
