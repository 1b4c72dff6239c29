import { DeserializationError } from '@x/errors'
import type { MessageHeaders, ResolvedReference, SchemaCodec, SchemaFormat } from '@x/serde-core'
import { createCodec, isMissingNamedType, type NormalizedAvroOptions } from './avro/index.js'
import { AvroPayloadCodec } from './avro-payload-codec.js'

/** Java's `apicurio.<field>.encoding` header value with the JSON encoding (`AvroEncoding.JSON.name()`). */
const JSON_HEADERS = Object.freeze({
  key: Object.freeze({ 'apicurio.key.encoding': Buffer.from('JSON') }),
  value: Object.freeze({ 'apicurio.value.encoding': Buffer.from('JSON') }),
})

/** Java's header with the binary encoding (`AvroEncoding.BINARY.name()`): its deserializer keeps the last one it saw. */
const BINARY_HEADERS = Object.freeze({
  key: Object.freeze({ 'apicurio.key.encoding': Buffer.from('BINARY') }),
  value: Object.freeze({ 'apicurio.value.encoding': Buffer.from('BINARY') }),
})

const ENCODING_HEADER = { key: 'apicurio.key.encoding', value: 'apicurio.value.encoding' } as const

/**
 * The encoding a message's `apicurio.<field>.encoding` header names (`'json'` for `JSON`, `'binary'` for `BINARY`, as
 * Java's `AvroEncoding.valueOf` reads it, case and all), or undefined without the header.
 */
export function encodingHeaderOf(
  headers: MessageHeaders,
  field: 'key' | 'value',
): 'json' | 'binary' | undefined {
  const name = ENCODING_HEADER[field]
  let value = headers[name]
  if (Array.isArray(value)) value = value[value.length - 1]
  if (value === undefined) return undefined
  const text =
    typeof value === 'string'
      ? value
      : Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('latin1')
  if (text === 'JSON') return 'json'
  if (text === 'BINARY') return 'binary'
  throw new DeserializationError(
    `Cannot read header '${name}': expected JSON or BINARY (the Avro encoding Apicurio's serdes name), got ${JSON.stringify(text)}`,
  )
}

/**
 * @internal Avro for the core: registry schemas (JSON text, named types from references) parsed into avsc-based
 * codecs with the serde's `avro` options, and with `strict`, a check for undeclared fields before each write; the
 * payload in Avro binary or Avro's JSON encoding (`avro.encoding`, or a message's encoding header).
 */
export class AvroFormat implements SchemaFormat {
  readonly name = 'Avro'
  readonly artifactType = 'AVRO'
  readonly contentType = 'application/json'
  readonly #avro: NormalizedAvroOptions
  readonly #strict: boolean

  readonly messageHeaders: SchemaFormat['messageHeaders']

  constructor(avro: NormalizedAvroOptions, strict = false) {
    this.#avro = avro
    this.#strict = strict
    this.messageHeaders = avro.encoding === 'json' ? JSON_HEADERS : BINARY_HEADERS
  }

  /** The encoding a consumed message's `apicurio.<field>.encoding` header names, which wins over the option. */
  decodeHint(headers: MessageHeaders, field: 'key' | 'value'): unknown {
    return encodingHeaderOf(headers, field)
  }

  parse(schema: string | object, references?: readonly ResolvedReference[]): SchemaCodec {
    const codec = createCodec(
      schema,
      this.#avro,
      references?.map((reference) => reference.schema),
    )
    return new AvroPayloadCodec(codec, this.#strict, this.#avro.encoding)
  }

  needsReferences(error: unknown): boolean {
    return isMissingNamedType(error) !== undefined
  }

  /** The full name of the named type whose absence made `parse` fail. */
  referencesNeeded(error: unknown): readonly string[] {
    const missing = isMissingNamedType(error)
    return missing === undefined ? [] : [missing]
  }
}
