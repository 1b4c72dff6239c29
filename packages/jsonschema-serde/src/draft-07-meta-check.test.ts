import { readFileSync, writeFileSync } from 'node:fs'
import { Ajv, type AnySchema } from 'ajv'
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ajvAsItComes } from './test-support/ajv-as-it-comes.js'
import {
  DRAFT_07_META_CHECK_FILE,
  draft07MetaCheckSource,
} from './test-support/draft-07-meta-check-source.js'
import { checkSchema, compileValidator } from './validator.js'

/** What checking `schema` gives: `'valid'`, or the message of what was thrown. */
function outcome(check: () => unknown): string {
  try {
    check()
    return 'valid'
  } catch (error) {
    return (error as Error).message
  }
}

/** ajv as it comes (its own keywords), compiling draft-07's meta-schema at run time, with the checkers' options. */
const runtime = ajvAsItComes()

const DRAFT_07 = ['http://json-schema.org/draft-07/schema', 'http://json-schema.org/draft-07/schema#']

/** Schema-like objects: the meta-schema's keywords with values of the right and the wrong kinds, nested. */
const schemas = fc.letrec((tie) => {
  const sub = fc.oneof({ depthSize: 'small' }, fc.boolean(), tie('schema'), fc.constant(null), fc.string())
  const anything = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null))
  const number = fc.oneof(fc.integer({ min: -3, max: 5 }), fc.double(), fc.string())
  const keyword = fc.constantFrom(
    'type',
    'properties',
    'items',
    'required',
    'minimum',
    'maxLength',
    'pattern',
    'enum',
    'const',
    'additionalProperties',
    'allOf',
    'anyOf',
    'not',
    '$ref',
    '$id',
    '$schema',
    'format',
    'uniqueItems',
    'dependencies',
    'definitions',
    'if',
    'title',
    'javaType',
    '__proto__',
    'constructor',
  )
  const argumentOf = (name: string): fc.Arbitrary<unknown> => {
    switch (name) {
      case 'type':
        return fc.oneof(
          fc.constantFrom('object', 'string', 'integer', 'strin', 'null'),
          fc.array(fc.constantFrom('string', 'number', 'numbr'), { maxLength: 3 }),
          number,
        )
      case 'properties':
      case 'definitions':
      case 'dependencies':
        return fc.oneof(fc.dictionary(fc.string({ maxLength: 3 }), sub, { maxKeys: 3 }), anything)
      case 'items':
        return fc.oneof(sub, fc.array(sub, { maxLength: 2 }))
      case 'required':
        return fc.oneof(
          fc.array(fc.oneof(fc.string({ maxLength: 2 }), fc.integer()), { maxLength: 3 }),
          anything,
        )
      case 'minimum':
      case 'maxLength':
        return number
      case 'enum':
        return fc.oneof(
          fc.array(anything, { maxLength: 3 }),
          fc.array(fc.constantFrom(1, 'a', null, [1], { k: 1 }, { k: [1] }), { maxLength: 6 }),
          anything,
        )
      case 'allOf':
      case 'anyOf':
        return fc.oneof(fc.array(sub, { maxLength: 2 }), sub)
      case 'not':
      case 'if':
      case 'additionalProperties':
        return sub
      case '$schema':
        return fc.oneof(fc.constant(undefined), fc.constantFrom(...DRAFT_07))
      case 'uniqueItems':
        return fc.oneof(fc.boolean(), anything)
      default:
        return anything
    }
  }
  return {
    schema: fc
      .array(
        keyword.chain((name) => argumentOf(name).map((value) => [name, value] as const)),
        { maxLength: 4 },
      )
      .map((entries) => {
        // Own properties only, `__proto__` included (as JSON.parse makes them).
        const schema: Record<string, unknown> = {}
        for (const [name, value] of entries)
          if (value !== undefined)
            Object.defineProperty(schema, name, {
              value,
              enumerable: true,
              writable: true,
              configurable: true,
            })
        return schema
      }),
  }
}).schema

describe('the precompiled draft-07 meta-schema check', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('is what the installed ajv generates from the draft-07 meta-schema with the checkers’ options', () => {
    const expected = draft07MetaCheckSource()
    if (process.env.UPDATE_GENERATED === '1') writeFileSync(DRAFT_07_META_CHECK_FILE, expected)
    expect(readFileSync(DRAFT_07_META_CHECK_FILE, 'utf8')).toBe(expected)
  })

  it('refuses and accepts the schemas a checker compiled at run time does, with the same message', () => {
    fc.assert(
      fc.property(schemas, (schema) => {
        expect(outcome(() => checkSchema(schema as AnySchema, 'draft-07', runtime as never))).toBe(
          outcome(() => runtime.validateSchema(schema as AnySchema, true)),
        )
      }),
      { numRuns: 400 },
    )
  })

  it('names every failing place of an invalid schema as ajv does', () => {
    const schema = { type: 'strin', properties: { a: { minimum: '5' }, b: { required: [1] } } }
    const message =
      'schema is invalid: data/properties/a/minimum must be number, data/properties/b/required/0 must be string, ' +
      'data/type must be equal to one of the allowed values, data/type must be array, data/type must match a schema in anyOf'
    expect(outcome(() => runtime.validateSchema(schema, true))).toBe(message)
    expect(outcome(() => checkSchema(schema, 'draft-07', runtime as never))).toBe(message)
    expect(outcome(() => compileValidator(schema))).toBe(message)
  })

  it('compiles a draft-07 schema without compiling a meta-schema, and a schema of another dialect with its checker', () => {
    const validateSchema = vi.spyOn(Ajv.prototype, 'validateSchema')
    for (const $schema of [undefined, ...DRAFT_07])
      compileValidator({ ...($schema === undefined ? {} : { $schema }), type: 'object' })
    expect(validateSchema).not.toHaveBeenCalled()
    const draft06 = { $schema: 'http://json-schema.org/draft-06/schema#', type: 'object' }
    compileValidator(draft06)
    expect(validateSchema.mock.calls.filter(([schema]) => schema === draft06)).toHaveLength(1)
  })
})
