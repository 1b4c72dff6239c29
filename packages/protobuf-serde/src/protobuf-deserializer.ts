import {
  type DeserializerOptions,
  type DeserializerSetup,
  normalizeDeserializerOptions,
  type RegistryPort,
  SchemaDeserializer,
} from '@x/serde-core'
import type { Framing } from './framing.js'
import { ProtobufFormat } from './protobuf-format.js'
import { checkFraming, checkReadOptions } from './protobuf-options.js'
import type { LongMode } from './values.js'

/** Options of {@link ProtobufDeserializer}: the options every deserializer has, and Protobuf's own. */
export interface ProtobufDeserializerOptions<T = unknown> extends DeserializerOptions<T> {
  /**
   * What precedes the message after the schema id: `'apicurio'` (a `Ref` naming the message) or `'confluent'`
   * (message indexes, the single `00` and Apicurio Java's full `02 00` form both read). It must match the producer;
   * a frame of the other kind is refused with an error that says which framing it looks like.
   * @default 'apicurio'
   */
  framing?: Framing
  /**
   * 64-bit integers: `'auto'` a `number` while safe and a `bigint` beyond (never rounded), `'number'` always a
   * number (a value beyond the safe range is a `DeserializationError` whose cause is a `RangeError`), `'bigint'`
   * always a bigint.
   * @default 'auto'
   */
  longs?: LongMode
  /** Enum values as their names, or as their numbers. @default 'name' */
  enums?: 'name' | 'number'
  /** proto3 fields that are not on the wire come back with their default values (`false`: left out). @default true */
  defaults?: boolean
  /**
   * Fields the schema does not know: `'drop'`, or `'keep'` their raw bytes on each message object (a non-enumerable
   * `$unknowns`), so that writing the object again with a `ProtobufSerializer` writes them back.
   * @default 'drop'
   */
  unknownFields?: 'drop' | 'keep'
}

const OWNER = 'ProtobufDeserializer'

function setupOf<T>(client: unknown, options: unknown): DeserializerSetup<T> {
  const { options: shared, raw } = normalizeDeserializerOptions<T>(OWNER, options, [
    'framing',
    'longs',
    'enums',
    'defaults',
    'unknownFields',
  ])
  const format = new ProtobufFormat(checkFraming(raw.framing, OWNER), checkReadOptions(raw, OWNER), undefined)
  return { owner: OWNER, client, format, options: shared }
}

/**
 * Reads Apicurio-framed (or header-mode) Protobuf messages: the writer schema by the id in the message, the message
 * type by the `Ref` (or the message indexes) that follows it. Values are plain objects: field names as in the
 * `.proto`, 64-bit integers exact, `bytes` as `Buffer`s, enums as names, proto3 defaults present (see the options).
 * Reads what Apicurio's Java `ProtobufKafkaSerializer` writes.
 *
 * The methods are those of `SchemaDeserializer` (`@x/serde-core`), the same as `AvroDeserializer`'s.
 *
 * @typeParam T - What `deserialize` returns: the result of `fromDict`, or the decoded value.
 */
export class ProtobufDeserializer<T = unknown> extends SchemaDeserializer<T> {
  /** @throws `TypeError` (code `INVALID_CONFIG`) for conflicting or misused options. */
  constructor(client: RegistryPort, options?: ProtobufDeserializerOptions<T>) {
    super(setupOf<T>(client, options))
  }
}
