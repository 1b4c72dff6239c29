import type { ResolvedReference, SchemaCodec, SchemaFormat } from '@x/serde-core'
import { type AvroCodec, createCodec, isMissingNamedType, type NormalizedAvroOptions } from './avro/index.js'

/** A codec that refuses fields the schema does not declare (`strict`) before it writes. */
class StrictAvroCodec implements SchemaCodec {
  readonly #codec: AvroCodec
  readonly recordName: string | undefined

  constructor(codec: AvroCodec) {
    this.#codec = codec
    this.recordName = codec.fullName
  }

  encodeInto(value: unknown, target: Buffer, offset: number): number {
    this.#codec.checkStrict(value)
    return this.#codec.encodeInto(value, target, offset)
  }

  decode(bytes: Buffer, offset: number, end: number, writer?: SchemaCodec): unknown {
    return this.#codec.decode(bytes, offset, end, unwrap(writer))
  }

  /** @internal The plain codec, for resolution against other codecs. */
  get inner(): AvroCodec {
    return this.#codec
  }
}

function unwrap(codec: SchemaCodec | undefined): AvroCodec | undefined {
  return codec instanceof StrictAvroCodec ? codec.inner : (codec as AvroCodec | undefined)
}

/**
 * @internal Avro for the core: registry schemas (JSON text, named types from references) parsed into avsc-based
 * codecs with the serde's `avro` options, and with `strict`, a check for undeclared fields before each write.
 */
export class AvroFormat implements SchemaFormat {
  readonly name = 'Avro'
  readonly artifactType = 'AVRO'
  readonly contentType = 'application/json'
  readonly #avro: NormalizedAvroOptions
  readonly #strict: boolean

  constructor(avro: NormalizedAvroOptions, strict = false) {
    this.#avro = avro
    this.#strict = strict
  }

  parse(schema: string | object, references?: readonly ResolvedReference[]): SchemaCodec {
    const codec = createCodec(
      schema,
      this.#avro,
      references?.map((reference) => reference.schema),
    )
    return this.#strict ? new StrictAvroCodec(codec) : (codec as AvroCodec & SchemaCodec)
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
