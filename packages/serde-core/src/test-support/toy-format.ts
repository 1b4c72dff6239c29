import { invalidDataError } from '@x/errors'
import type { ResolvedReference, SchemaCodec, SchemaFormat } from '../schema-format.js'

/**
 * A tiny format for testing the core without any real format: a schema is JSON `{ "title": "Toy", "fields": ["a",
 * "b"], "uses": ["other.toy"] }`; a value is an object whose listed fields are strings, written as the JSON array
 * of those strings (UTF-8). `uses` names references the schema needs (its fields are appended after its own).
 * Reading with a reader schema keeps the reader's fields, `null` for those the writer lacks.
 */

export class MissingToyReference extends Error {
  override name = 'MissingToyReference'
}

interface ToySchema {
  title?: string
  fields: string[]
  uses?: string[]
}

export class ToyCodec implements SchemaCodec {
  readonly fields: readonly string[]
  readonly recordName: string | undefined

  constructor(fields: readonly string[], recordName: string | undefined) {
    this.fields = fields
    this.recordName = recordName
  }

  encodeInto(value: unknown, target: Buffer, offset: number): number {
    const record = value as Record<string, unknown>
    const bad = this.fields.filter((field) => typeof record?.[field] !== 'string')
    if (bad.length > 0) throw invalidDataError(`Toy value lacks string fields: ${bad.join(', ')}`, bad)
    const text = JSON.stringify(this.fields.map((field) => record[field]))
    const length = Buffer.byteLength(text)
    if (offset + length > target.length) return target.length - (offset + length)
    return offset + target.write(text, offset, 'utf8')
  }

  decode(bytes: Buffer, offset: number, end: number, writer?: SchemaCodec): unknown {
    const values = JSON.parse(bytes.toString('utf8', offset, end)) as unknown
    const source = (writer as ToyCodec | undefined) ?? this
    if (!Array.isArray(values) || values.length !== source.fields.length) {
      throw new TypeError(`Toy payload is not an array of ${source.fields.length} strings`)
    }
    const written = new Map(source.fields.map((field, i) => [field, values[i]]))
    const out: Record<string, unknown> = {}
    for (const field of this.fields) out[field] = written.get(field) ?? null
    return out
  }
}

export class ToyFormat implements SchemaFormat<ToyCodec> {
  readonly name = 'Toy'
  readonly artifactType = 'JSON'
  readonly contentType = 'application/json'
  /** Every `parse` call, for asserting when references were given. */
  readonly parses: { schema: string; references: readonly ResolvedReference[] | undefined }[] = []

  parse(schema: string, references?: readonly ResolvedReference[]): ToyCodec {
    this.parses.push({ schema, references })
    const parsed = JSON.parse(schema) as ToySchema
    if (!Array.isArray(parsed.fields)) throw new TypeError('a Toy schema has a fields array')
    const fields = [...parsed.fields]
    for (const name of parsed.uses ?? []) {
      const found = references?.find((reference) => reference.name === name)
      if (found === undefined) throw new MissingToyReference(`Toy schema uses '${name}', which is not given`)
      fields.push(...(JSON.parse(found.schema) as ToySchema).fields)
    }
    return new ToyCodec(fields, parsed.title)
  }

  needsReferences(error: unknown): boolean {
    return error instanceof MissingToyReference
  }
}
