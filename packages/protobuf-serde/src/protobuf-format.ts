import type { ResolvedReference, SchemaFormat } from '@x/serde-core'
import type { Framing } from './framing.js'
import { importsNeedingReferences, MissingImportError, parseProto } from './proto-schema.js'
import { ProtobufCodec, type ReadOptions, type WriteOptions } from './protobuf-codec.js'

/**
 * @internal Protobuf for the core: registry schemas (`.proto` text, imports from references by import path,
 * well-known types built in) parsed with protobufjs into codecs with the serde's framing and value options.
 */
export class ProtobufFormat implements SchemaFormat<ProtobufCodec> {
  readonly name = 'Protobuf'
  readonly artifactType = 'PROTOBUF'
  readonly contentType = 'application/x-protobuf'
  readonly #framing: Framing
  readonly #read: ReadOptions
  readonly #write: WriteOptions | undefined

  constructor(framing: Framing, read: ReadOptions, write: WriteOptions | undefined) {
    this.#framing = framing
    this.#read = read
    this.#write = write
  }

  parse(text: string, references?: readonly ResolvedReference[]): ProtobufCodec {
    return new ProtobufCodec(parseProto(text, references), this.#framing, this.#read, this.#write)
  }

  needsReferences(error: unknown): boolean {
    return error instanceof MissingImportError
  }

  /** The imports of the schema that are not well-known types: each needs a reference named by its import path. */
  referencesNeeded(_error: unknown, schema: string): readonly string[] {
    return importsNeedingReferences(schema)
  }
}
