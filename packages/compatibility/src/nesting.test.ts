import { describe, expect, it } from 'vitest'
import { checkCompatibility } from './check-compatibility.js'
import { checkReferences } from './check-references.js'
import type { SchemaFormat } from './formats.js'
import { validateSchema } from './validate-schema.js'

// Schemas nested far deeper than any stack holds are refused as unreadable, never with a RangeError; schemas just
// within the limit are read.

const DEEP = 100_000

const avroRecords = (depth: number): string => {
  let schema = '"int"'
  for (let i = depth; i > 0; i--)
    schema = `{"type":"record","name":"R${i}","fields":[{"name":"f","type":${schema}}]}`
  return schema
}
const avroArrays = (depth: number) => `${'{"type":"array","items":'.repeat(depth)}"int"${'}'.repeat(depth)}`
const jsonProperties = (depth: number) =>
  `${'{"type":"object","properties":{"a":'.repeat(depth)}{}${'}}'.repeat(depth)}`
const jsonItems = (depth: number) => `${'{"type":"array","items":'.repeat(depth)}{}${'}'.repeat(depth)}`
const protoMessages = (depth: number) =>
  `syntax = "proto3";\n${'message M { '.repeat(depth)}${'}'.repeat(depth)}`

const compare = (format: SchemaFormat, schema: string) =>
  checkCompatibility({ format, level: 'FULL_TRANSITIVE', existing: [schema], proposed: schema })

const unreadable = (reason: string) => ({
  compatible: false,
  issues: [{ path: '', message: `The schemas cannot be compared: ${reason}.` }],
  unreadable: reason,
})

describe('schemas nested 100 000 levels deep', () => {
  it.each([
    ['nested records', avroRecords(DEEP)],
    ['nested arrays', avroArrays(DEEP)],
  ])('are unreadable Avro (%s)', (_, schema) => {
    const reason = 'The schema nests deeper than 1000 levels of JSON'
    expect(compare('AVRO', schema)).toEqual(unreadable(`SchemaParseException: ${reason}`))
    expect(validateSchema({ format: 'AVRO', schema })).toEqual([
      { path: '', message: `The schema is not valid Avro: ${reason}.` },
    ])
    expect(checkReferences({ format: 'AVRO', schema })).toEqual([])
  })

  it.each([
    ['nested properties', jsonProperties(DEEP)],
    ['nested items', jsonItems(DEEP)],
  ])('are unreadable JSON Schemas (%s)', (_, schema) => {
    expect(compare('JSON', schema)).toEqual(
      unreadable('The existing schema nests deeper than 1000 levels of JSON'),
    )
    const description = 'JSON schema not valid: The schema nests deeper than 1000 levels of JSON'
    expect(validateSchema({ format: 'JSON', schema })).toEqual([
      {
        path: '',
        message: `The schema is not valid JSON Schema: ${description}.`,
        cause: { description, context: '' },
      },
    ])
    expect(checkReferences({ format: 'JSON', schema })).toEqual([])
  })

  it('are unreadable Protobuf (nested messages)', () => {
    const schema = protoMessages(DEEP)
    const reason = 'the file nests schemas deeper than 128 levels at 2:1547'
    expect(compare('PROTOBUF', schema)).toEqual(unreadable(reason))
    expect(validateSchema({ format: 'PROTOBUF', schema })).toEqual([
      { path: '', message: `The schema is not valid Protobuf: ${reason}.` },
    ])
    expect(checkReferences({ format: 'PROTOBUF', schema })).toEqual([])
  })
})

describe('schemas nested more than 128 levels of schemas deep', () => {
  it.each<[SchemaFormat, string, string, string]>([
    ['AVRO', 'records', avroRecords(128), avroRecords(127)],
    ['AVRO', 'arrays', avroArrays(128), avroArrays(127)],
    ['JSON', 'properties', jsonProperties(128), jsonProperties(127)],
    ['JSON', 'items', jsonItems(128), jsonItems(127)],
    ['PROTOBUF', 'messages', protoMessages(129), protoMessages(128)],
  ])('are refused (%s %s), 128 levels are read', (format, _, tooDeep, deepest) => {
    expect(compare(format, tooDeep).unreadable).toMatch(/nests schemas deeper than 128 levels/)
    expect(validateSchema({ format, schema: tooDeep })).toHaveLength(1)
    expect(compare(format, deepest)).toEqual({ compatible: true, issues: [] })
    expect(validateSchema({ format, schema: deepest })).toEqual([])
  })
})

const CHAIN = 10_000

describe('chains of references 10 000 long', () => {
  it('are an Avro comparison refused as unreadable', () => {
    // each record's field refers to the next record, all defined side by side in one union
    const records = Array.from({ length: CHAIN }, (_, i) => ({
      type: 'record',
      name: `R${i}`,
      fields: i + 1 < CHAIN ? [{ name: 'next', type: `R${i + 1}` }] : [],
    }))
    const schema = JSON.stringify(records)
    expect(validateSchema({ format: 'AVRO', schema })).toEqual([])
    expect(compare('AVRO', schema)).toEqual(unreadable('The comparison nests schemas deeper than 128 levels'))
  })

  it('are a JSON Schema refused as unreadable and as invalid', () => {
    const definitions = Object.fromEntries(
      Array.from({ length: CHAIN }, (_, i) => [
        `d${i}`,
        i + 1 < CHAIN ? { type: 'object', properties: { next: { $ref: `#/definitions/d${i + 1}` } } } : {},
      ]),
    )
    const schema = JSON.stringify({ definitions, $ref: '#/definitions/d0' })
    expect(compare('JSON', schema)).toEqual(unreadable('The comparison nests schemas deeper than 128 levels'))
    const [issue, ...others] = validateSchema({ format: 'JSON', schema })
    expect(others).toEqual([])
    expect(issue?.cause?.description).toBe('the schema nests schemas deeper than 128 levels')
    expect(issue?.cause?.context).toMatch(/^#\/definitions\/d\d+(\/properties\/next)?$/)
  })

  it('are Protobuf public imports refused as invalid', () => {
    const references = Object.fromEntries(
      Array.from({ length: CHAIN }, (_, i) => [
        `f${i}.proto`,
        `syntax = "proto3";\n${i + 1 < CHAIN ? `import public "f${i + 1}.proto";\n` : ''}`,
      ]),
    )
    const schema = 'syntax = "proto3";\nimport "f0.proto";\n'
    expect(validateSchema({ format: 'PROTOBUF', schema, references })).toEqual([
      {
        path: '',
        message:
          'The schema is not valid Protobuf: the chain of public imports nests schemas deeper than 128 levels.',
      },
    ])
  })
})

describe('JSON Schema references that branch into one another', () => {
  // every property refers back to the root: the comparison follows the references along every order of them
  const branching = (count: number) =>
    JSON.stringify({
      properties: Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, { $ref: '#' }])),
    })

  it('are compared when few, as the registry compares them', () => {
    expect(compare('JSON', branching(5))).toEqual({ compatible: true, issues: [] })
  })

  it('are refused as unreadable in moments when they would keep the comparison going for long (for hours from 10)', () => {
    const started = performance.now()
    expect(compare('JSON', branching(8))).toEqual(
      unreadable('The comparison takes more than 1000000 steps (references that branch into one another)'),
    )
    expect(performance.now() - started).toBeLessThan(5_000)
  })
})
