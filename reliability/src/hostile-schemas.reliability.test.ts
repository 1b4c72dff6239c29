import {
  COMPATIBILITY_LEVELS,
  checkCompatibility,
  checkReferences,
  type SchemaFormat,
  validateSchema,
} from '@x/compatibility'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { propertyTests } from './support/entry-tests.js'
import {
  chain,
  DEPTHS,
  hostileKey,
  hostileValue,
  KIB64,
  ownObject,
  PROTOTYPE_NAMES,
  samples,
} from './support/hostile.js'
import { ANY_JSON_SCHEMA, EDGE_PROTO, EDGE_SCHEMA } from './support/hostile-schemas.js'
import { EntryPoint } from './support/probe.js'
import { count, recordFigures } from './support/scale.js'
import { JSON_SCHEMA, PROTO_SCHEMA, RICH_SCHEMA } from './support/schemas.js'

// Hostile schemas at the offline checks: valid schemas of each format mutated character by character and node by node
// (prototype-named keys, values of the wrong type, nesting far beyond the stack), random texts, and crafted ones
// (deep nesting, wide unions, huge texts). `checkCompatibility`, `validateSchema` and `checkReferences` must answer
// with a verdict or one of the library's errors, fast, and leave Object.prototype alone.

const SEED = Number(process.env.RELIABILITY_SEED ?? 20_261_207)
const N = count('hostileSchemas')
const figures: Record<string, string | number> = {}

afterAll(() => recordFigures('hostile-schemas', figures))

const SEEDS: Record<SchemaFormat, string[]> = {
  AVRO: [JSON.stringify(EDGE_SCHEMA), JSON.stringify(RICH_SCHEMA), '"string"', '["null","long"]'],
  JSON: [
    JSON.stringify(JSON_SCHEMA),
    JSON.stringify(ANY_JSON_SCHEMA),
    '{"type":"object","properties":{"a":{"$ref":"#"}}}',
  ],
  PROTOBUF: [PROTO_SCHEMA, EDGE_PROTO, 'syntax = "proto3";\nmessage A { string a = 1; }\n'],
}

function deepAvro(depth: number): string {
  return `${'{"type":"array","items":'.repeat(depth)}"long"${'}'.repeat(depth)}`
}
function deepJsonSchema(depth: number): string {
  return `${'{"type":"object","properties":{"a":'.repeat(depth)}{}${'}}'.repeat(depth)}`
}
function deepProto(depth: number): string {
  return `syntax = "proto3";\n${'message A { '.repeat(depth)}string a = 1;${' }'.repeat(depth)}\n`
}
function wideUnion(branches: number): string {
  return JSON.stringify({
    type: 'record',
    name: 'Wide',
    fields: [
      {
        name: 'u',
        type: Array.from({ length: branches }, (_, i) => ({ type: 'fixed', name: `F${i}`, size: 1 })),
      },
    ],
  })
}

/** Schemas no mutation reaches: nesting far beyond the stack, a wide union, prototype names as names, 64 KiB texts. */
const CRAFTED: Record<SchemaFormat, string[]> = {
  AVRO: [
    ...DEPTHS.map(deepAvro),
    wideUnion(400),
    JSON.stringify({
      type: 'record',
      name: '__proto__',
      fields: PROTOTYPE_NAMES.map((name) => ({ name: name.replace(/^_+/, 'x'), type: 'string' })),
    }),
    JSON.stringify({ type: 'enum', name: 'constructor', symbols: ['__proto__', 'toString'] }),
    `"${'x'.repeat(KIB64 - 2)}"`,
  ],
  JSON: [
    ...DEPTHS.map(deepJsonSchema),
    ...DEPTHS.map((depth) => `${'{"allOf":['.repeat(depth)}{}${']}'.repeat(depth)}`),
    JSON.stringify({
      type: 'object',
      properties: ownObject(PROTOTYPE_NAMES.map((name) => [name, { type: 'string' }])),
      required: [...PROTOTYPE_NAMES],
    }),
    '{"$ref":"#/definitions/__proto__","definitions":{"__proto__":{"type":"string"}}}',
    // enums of 64 KiB: their items must differ (the meta-schema's uniqueItems), and be compared with others'
    JSON.stringify({ enum: Array.from({ length: 12_500 }, (_, i) => i) }),
    JSON.stringify({
      type: 'object',
      properties: { e: { enum: Array.from({ length: 5_900 }, (_, i) => ({ k: i })) } },
    }),
    JSON.stringify({ enum: [...Array.from({ length: 9_000 }, (_, i) => [i]), [7]] }),
    '{"$ref":"#/constructor/prototype"}',
    '{"$ref":"#"}',
  ],
  PROTOBUF: [
    ...DEPTHS.map(deepProto),
    `syntax = "proto3";\n${PROTOTYPE_NAMES.map((name, i) => `message ${name.replace(/^_+/, 'x')} { string ${name} = ${i + 1}; }`).join('\n')}\n`,
    'syntax = "proto3";\nimport "constructor";\nimport "__proto__";\nmessage A { string a = 1; }\n',
    `syntax = "proto3";\nmessage A { ${Array.from({ length: 3_000 }, (_, i) => `string f${i} = ${i + 1};`).join(' ')} }\n`,
  ],
}

/** A text mutation: characters dropped, doubled or replaced. */
function mutatedText(texts: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.constantFrom(...texts),
      fc.nat(),
      fc.nat({ max: 8 }),
      fc.string({ unit: 'binary', maxLength: 4 }),
      fc.nat({ max: 2 }),
    )
    .map(([text, at, span, insert, how]) => {
      const start = at % (text.length + 1)
      const end = Math.min(text.length, start + span)
      if (how === 0) return text.slice(0, start) + text.slice(end)
      if (how === 1) return text.slice(0, end) + text.slice(start)
      return text.slice(0, start) + insert + text.slice(end)
    })
}

/** A node mutation of a JSON schema: one object member replaced by a hostile value or given a prototype-named key. */
function mutatedJson(texts: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...texts), fc.nat(), hostileKey, hostileValue)
    .map(([text, pick, key, value]) => {
      const root = JSON.parse(text) as unknown
      const objects: Record<string, unknown>[] = []
      const stack = [root]
      while (stack.length > 0) {
        const node = stack.pop()
        if (typeof node === 'object' && node !== null) {
          if (!Array.isArray(node)) objects.push(node as Record<string, unknown>)
          stack.push(...Object.values(node))
        }
      }
      const target = objects[pick % Math.max(1, objects.length)]
      if (target !== undefined) {
        const keys = Object.keys(target)
        const name = pick % 2 === 0 || keys.length === 0 ? key : (keys[pick % keys.length] as string)
        Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true })
      }
      try {
        return (
          JSON.stringify(root, (_key, item) => (typeof item === 'bigint' ? Number(item) : item)) ?? 'null'
        )
      } catch {
        return text
      }
    })
}

function schemas(format: SchemaFormat): fc.Arbitrary<string> {
  const json = format === 'PROTOBUF' ? [] : [{ weight: 3, arbitrary: mutatedJson(SEEDS[format]) }]
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...SEEDS[format]) },
    { weight: 3, arbitrary: mutatedText(SEEDS[format]) },
    ...json,
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  )
}

const FORMATS = ['AVRO', 'JSON', 'PROTOBUF'] as const
const references = fc
  .array(
    fc.tuple(
      fc.oneof(hostileKey, fc.constantFrom('reliability.Edge', 'a.proto')),
      fc.constantFrom(...FORMATS.flatMap((f) => SEEDS[f])),
    ),
    { maxLength: 3 },
  )
  .map((entries) => ownObject(entries) as Record<string, string>)

const entries = new Map<string, EntryPoint>()
const get = (name: string) => () => entries.get(name) as EntryPoint
const crafted = FORMATS.flatMap((format) => CRAFTED[format].map((schema) => ({ format, schema })))

describe('checkCompatibility', () => {
  it(`compares ${N} hostile schemas at every level`, async () => {
    const entry = new EntryPoint('checkCompatibility', { read: false })
    entries.set(entry.name, entry)
    const inputs = fc.constantFrom(...FORMATS).chain((format) =>
      fc.record({
        format: fc.constant(format),
        level: fc.constantFrom(...COMPATIBILITY_LEVELS.filter((level) => level !== 'NONE')),
        existing: fc.array(schemas(format), { minLength: 1, maxLength: 2 }),
        proposed: schemas(format),
        references,
      }),
    )
    const craftedInputs = crafted.flatMap(({ format, schema }) => [
      { format, level: 'FULL_TRANSITIVE' as const, existing: [schema], proposed: schema, references: {} },
      {
        format,
        level: 'BACKWARD' as const,
        existing: [SEEDS[format][0] as string],
        proposed: schema,
        references: {},
      },
    ])
    for (const input of chain(craftedInputs, samples(inputs, N, SEED + 200))) {
      // the bytes of the texts compared, as a file or a registry request holds them
      const size = [input.proposed, ...input.existing].reduce((sum, text) => sum + Buffer.byteLength(text), 0)
      const outcome = await entry.probe(input, size, () => checkCompatibility(input))
      if (
        outcome.ok &&
        (typeof outcome.value.compatible !== 'boolean' || !Array.isArray(outcome.value.issues))
      ) {
        entry.find('error', input, `not a verdict: ${JSON.stringify(outcome.value).slice(0, 120)}`)
      }
    }
    Object.assign(figures, entry.figures())
  })
  propertyTests(get('checkCompatibility'), ['error', 'time', 'prototype'], {})
})

describe('validateSchema', () => {
  it(`validates ${N} hostile schemas`, async () => {
    const entry = new EntryPoint('validateSchema', { read: false })
    entries.set(entry.name, entry)
    const inputs = fc.constantFrom(...FORMATS).chain((format) =>
      fc.record({
        format: fc.constant(format),
        schema: schemas(format),
        level: fc.constantFrom('FULL', 'SYNTAX_ONLY') as fc.Arbitrary<'FULL' | 'SYNTAX_ONLY'>,
        references,
      }),
    )
    const craftedInputs = crafted.map(({ format, schema }) => ({
      format,
      schema,
      level: 'FULL' as const,
      references: {},
    }))
    for (const input of chain(craftedInputs, samples(inputs, N, SEED + 210))) {
      const outcome = await entry.probe(input, Buffer.byteLength(input.schema), () => validateSchema(input))
      if (outcome.ok && !Array.isArray(outcome.value)) entry.find('error', input, 'not a list of issues')
    }
    Object.assign(figures, entry.figures())
  })
  propertyTests(get('validateSchema'), ['error', 'time', 'prototype'], {})
})

describe('checkReferences', () => {
  it(`checks the references of ${N} hostile schemas`, async () => {
    const entry = new EntryPoint('checkReferences', { read: false })
    entries.set(entry.name, entry)
    const inputs = fc
      .constantFrom(...FORMATS)
      .chain((format) => fc.record({ format: fc.constant(format), schema: schemas(format), references }))
    const craftedInputs = crafted.map(({ format, schema }) => ({ format, schema, references: {} }))
    for (const input of chain(craftedInputs, samples(inputs, N, SEED + 220))) {
      const outcome = await entry.probe(input, Buffer.byteLength(input.schema), () => checkReferences(input))
      if (outcome.ok && !Array.isArray(outcome.value)) entry.find('error', input, 'not a list of issues')
    }
    Object.assign(figures, entry.figures())
  })
  propertyTests(get('checkReferences'), ['error', 'time', 'prototype'], {})

  it('names a missing reference called like an Object.prototype member, as any other name', () => {
    const missed: string[] = []
    for (const name of PROTOTYPE_NAMES) {
      const inputs = [
        {
          format: 'PROTOBUF' as const,
          schema: `syntax = "proto3";\nimport "${name}";\nmessage A { string a = 1; }\n`,
        },
        { format: 'JSON' as const, schema: JSON.stringify({ $ref: name }) },
      ]
      for (const input of inputs) {
        const issues = checkReferences({ ...input, references: {} })
        if (!issues.some((issue) => issue.message.includes(JSON.stringify(name))))
          missed.push(`${input.format} ${name}`)
      }
    }
    expect(missed).toEqual([])
  })
})

describe('after every input', () => {
  it('ran every entry point', () => {
    expect(entries.size).toBe(3)
  })
})
