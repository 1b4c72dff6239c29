import { describe, expect, it } from 'vitest'
import type { SchemaFormat } from './schema-format.js'
import { checkSchemaToRegister } from './schema-to-register.js'

class Missing extends Error {}

/** A format whose schema text names what it lacks: `needs:a,b` fails until a and b are references. */
function formatOf(name: string, withNeeded: boolean): SchemaFormat {
  const format: SchemaFormat = {
    name,
    artifactType: 'TOY',
    contentType: 'application/json',
    parse(schema) {
      if (schema.startsWith('needs:')) throw new Missing(`unknown ${schema.slice(6)}`)
      if (schema !== 'ok') throw new Error('not toy')
      return { encodeInto: () => 0, decode: () => undefined }
    },
    needsReferences: (error) => error instanceof Missing,
  }
  if (withNeeded) format.referencesNeeded = (_error, schema) => schema.slice(6).split(',')
  return format
}

describe('checkSchemaToRegister', () => {
  it('accepts a schema that parses, and one whose missing names the references supply', () => {
    expect(() => checkSchemaToRegister('ToySerializer', formatOf('Toy', true), 'ok', undefined)).not.toThrow()
    expect(() =>
      checkSchemaToRegister('ToySerializer', formatOf('Toy', true), 'needs:a,b', [
        { name: 'a' },
        { name: 'b' },
      ]),
    ).not.toThrow()
  })

  it('refuses with INVALID_CONFIG naming the references that are missing, the parse failure as cause', () => {
    let error: (TypeError & { code?: string }) | undefined
    try {
      checkSchemaToRegister('ToySerializer', formatOf('Toy', true), 'needs:a,b', [{ name: 'a' }])
    } catch (caught) {
      error = caught as TypeError
    }
    expect(error).toBeInstanceOf(TypeError)
    expect(error?.code).toBe('INVALID_CONFIG')
    expect(error?.message).toBe(
      "ToySerializer: the schema to register (autoRegister) is not a valid Toy schema: unknown a,b (give 'b' as a reference named as the schema names it)",
    )
    expect(error?.cause).toBeInstanceOf(Missing)
  })

  it('without referencesNeeded, takes any reference as the cure, and names JSON Schema without a second "schema"', () => {
    const format = formatOf('JSON Schema', false)
    expect(() =>
      checkSchemaToRegister('JsonSchemaSerializer', format, 'needs:x', [{ name: 'y' }]),
    ).not.toThrow()
    expect(() => checkSchemaToRegister('JsonSchemaSerializer', format, 'needs:x', [])).toThrow(
      'JsonSchemaSerializer: the schema to register (autoRegister) is not a valid JSON Schema: unknown x',
    )
    expect(() => checkSchemaToRegister('JsonSchemaSerializer', format, 'bad', undefined)).toThrow(
      'JsonSchemaSerializer: the schema to register (autoRegister) is not a valid JSON Schema: not toy',
    )
  })
})
