import type { MessageHeaders } from './message-headers.js'

/**
 * What a format (Avro, JSON Schema, Protobuf) supplies to the core: how to parse a registry schema into a codec, and
 * the codec that encodes and decodes the payload after the schema id. Everything else — framing and id headers,
 * artifact resolution, registration, caches, reference loading, request counts, error wrapping, the sync API — is the
 * core's (see `SchemaSerializer` and `SchemaDeserializer`).
 */

/** A schema that another schema references (Apicurio artifact references), with its text, fetched by the core. */
export interface ResolvedReference {
  /**
   * The name the referring schema uses: for Avro the full name of the named type (`com.example.Address`), for JSON
   * Schema the `$ref` target (`address.json`), for Protobuf the import path (`common/address.proto`).
   */
  readonly name: string
  /** The referenced schema's text, as the registry returned it. */
  readonly schema: string
  readonly groupId: string | undefined
  readonly artifactId: string
  readonly version: string | undefined
}

/**
 * One parsed schema with the options of the serde that parsed it: encodes values into the bytes that follow the
 * schema id, and decodes them. A codec is built once per schema (and per serde) and cached; its two methods run
 * on every message, so they should do nothing per call that could be done once.
 */
export interface SchemaCodec {
  /**
   * Writes the payload of `value` into `target` from `offset` (for Protobuf, the `Ref` or message-index prefix comes
   * first). Returns the end offset, or a negative number: how many bytes are missing (grow `target` by at least that
   * much and call again). A value that does not fit the schema: a `TypeError` with code `INVALID_DATA` and `paths`
   * (or a `RangeError`), thrown as is to the caller.
   */
  encodeInto(value: unknown, target: Buffer, offset: number): number
  /**
   * Decodes `bytes[offset, end)`. With `writer`, `this` is the reader's codec and `writer` the codec of the schema
   * the message was written with (Avro schema resolution; JSON Schema validation against the reader's schema).
   * Any failure is thrown; the core wraps it into a `DeserializationError` with the failure as `cause`. `hint` is
   * what the format's `decodeHint` read from the message's headers (Avro: the payload's encoding), when it read
   * anything.
   */
  decode(bytes: Buffer, offset: number, end: number, writer?: SchemaCodec, hint?: unknown): unknown
  /** The full name of the record the schema describes, for messages; undefined when it has none. */
  readonly recordName?: string | undefined
  /**
   * The record data-contract rules see for a value of this schema: what Apicurio's Java serde 3.3 hands its rules
   * for the same value (and the registry's execute endpoint reads when sent it), led by the schema; see each format's
   * README. `kit` gives what `@x/rules` makes records of. With `fields`, only those top-level fields (the ones the
   * rules read). Absent: the record is the JSON of the value (`kit.json`: JSON Schema values are JSON already).
   * @throws an `Error` when the value cannot be given to the rules (the rules then fail with its message).
   */
  toRuleRecord?(
    value: unknown,
    fields: readonly string[] | undefined,
    kit: RuleValueKit,
  ): Record<string, unknown>
  /**
   * Turns the record a data-contract `TRANSFORM` rule gave back (as {@link toRuleRecord} makes records) into the
   * values `encodeInto` takes for this schema, inverting `toRuleRecord`. A value that does not fit the schema is left
   * as it is, for `encodeInto` to refuse. Absent: the record is encoded as it is (JSON Schema needs nothing).
   */
  fromRuleRecord?(record: Record<string, unknown>): unknown
  /**
   * The declared fields of the record a data-contract `READ` transform gave back for the message this codec
   * decoded last (as {@link toRuleRecord} makes records), as `decode` would have returned them had the message held
   * that record: bytes, timestamps and longs in the form every other message of the schema has them. Fields the
   * schema does not declare are left out (the core adds them back as the transform gave them). Absent: the record
   * is handed out as it is (JSON Schema, whose values are JSON already).
   * @throws an `Error` naming the field when a declared field does not fit the schema.
   */
  decodedRuleRecord?(record: Record<string, unknown>): unknown
  /**
   * Whether a key of the record a `READ` transform gave back names a field the schema declares (by another name
   * than `decode`'s, as Protobuf's JSON names), which {@link decodedRuleRecord} has given back already: the core
   * adds back only the fields that are neither in its result nor declared. Absent: a key is declared when that
   * result holds it.
   */
  declaresRuleField?(key: string): boolean
}

/** What a codec's `toRuleRecord` builds a rule record with: the helpers of `@x/rules`, loaded with rules on. */
export interface RuleValueKit {
  /** The rule record's value of an integral double (`RuleDouble` of `@x/rules`): CEL types it `double`. */
  double(value: number): unknown
  /**
   * A value as JSON for the rules (`toRuleRecord` of `@x/rules`: bytes as base64, a `Date` as RFC 3339 text, an
   * object with `toJSON` as what it returns); the `RuleDouble`s in it stay. With `fields`, only those fields.
   */
  json(value: unknown, fields?: readonly string[]): Record<string, unknown>
}

/** Parses registry schemas of one format, with the options of one serializer or deserializer. */
export interface SchemaFormat<C extends SchemaCodec = SchemaCodec> {
  /** The format's name for messages: `Avro`, `JSON Schema`, `Protobuf`. */
  readonly name: string
  /** The Apicurio artifact type registrations send: `AVRO`, `JSON`, `PROTOBUF`. */
  readonly artifactType: string
  /** The content type registrations send: `application/json`, or `application/x-protobuf` for Protobuf. */
  readonly contentType: string
  /**
   * Parses a schema's text into a codec. The core first calls it without references; when that throws and
   * `needsReferences(error)` is true, it fetches the schema's references (once, depth first, each artifact version
   * once) and calls it again with them, dependencies before the schemas that use them.
   */
  parse(schema: string, references?: readonly ResolvedReference[]): C
  /** True when a `parse` failure may be cured by the schema's references (a type, `$ref` or import not found). */
  needsReferences(error: unknown): boolean
  /**
   * For a `parse` failure that `needsReferences`: the reference names the schema needs (the named type or the
   * imports not found), so that `autoRegister` can tell which `references` are missing. Without it, any reference
   * given is taken to cure the failure.
   */
  referencesNeeded?(error: unknown, schema: string): readonly string[]
  /**
   * Headers the serializer writes beside the id header in `MESSAGE_HEADERS` mode, by field (Avro's
   * `apicurio.value.encoding` = `JSON` with the JSON encoding, as Java writes it). None when absent.
   */
  readonly messageHeaders?:
    | Readonly<Record<'key' | 'value', Readonly<Record<string, Uint8Array>>>>
    | undefined
  /**
   * What a consumed message's headers tell the codec beyond the schema id (Avro: the payload's encoding, from
   * `apicurio.<field>.encoding`), handed to `decode` as `hint`; undefined when they tell nothing. Throws (a
   * `DeserializationError`) for such a header it cannot read.
   */
  decodeHint?(headers: MessageHeaders, field: 'key' | 'value'): unknown
}
