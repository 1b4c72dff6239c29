import type { ResolvedReference } from '@x/serde-core'
import { Ajv, type AnySchema } from 'ajv'
import Ajv2020 from 'ajv/dist/2020.js'
import AjvDraft04 from 'ajv-draft-04'
import addFormats from 'ajv-formats'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { compileValidator } from './validator.js'

afterEach(() => {
  vi.restoreAllMocks()
})

const OPTIONS = { allErrors: true, strict: false, validateFormats: true }

/** What ajv's own compile (an instance that checks the schema itself) throws for a schema. */
function ajvsOwnError(make: (options: object) => Ajv, schema: object): string {
  const ajv = make(OPTIONS)
  ;(addFormats as unknown as (ajv: Ajv) => void)(ajv)
  try {
    ajv.compile(schema as AnySchema)
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('ajv compiled the schema')
}

function reference(name: string, schema: object): ResolvedReference {
  return { name, schema: JSON.stringify(schema), groupId: undefined, artifactId: name, version: '1' }
}

describe('compileValidator: the meta-schema check', () => {
  it.each([
    ['draft-07 (no $schema)', (o: object) => new Ajv(o), { type: 'nope' }],
    [
      'draft-07',
      (o: object) => new Ajv(o),
      { $schema: 'http://json-schema.org/draft-07/schema#', properties: { a: { minLength: -1 } } },
    ],
    [
      'draft-04',
      (o: object) => new (AjvDraft04 as unknown as new (o: object) => Ajv)(o),
      { $schema: 'http://json-schema.org/draft-04/schema#', required: [] },
    ],
    [
      '2020-12',
      (o: object) => new (Ajv2020 as unknown as new (o: object) => Ajv)(o),
      { $schema: 'https://json-schema.org/draft/2020-12/schema', minItems: -1 },
    ],
  ])('refuses a %s schema its meta-schema refuses, with the message ajv gives', (_, make, schema) => {
    const expected = ajvsOwnError(make, schema)
    expect(expected).toMatch(/^schema is invalid: /)
    expect(() => compileValidator(schema)).toThrow(expected)
    // The second time too: the dialect's checker is shared, and holds nothing of the first schema.
    expect(() => compileValidator(structuredClone(schema))).toThrow(expected)
  })

  it('refuses a draft-06 schema by the draft-06 meta-schema, which draft-07 would accept', () => {
    // draft-06 says exclusiveMinimum is a number; draft-07 says so too, but draft-04's boolean form is refused by both.
    const schema = { $schema: 'http://json-schema.org/draft-06/schema#', exclusiveMinimum: true }
    expect(() => compileValidator(schema)).toThrow(
      /^schema is invalid: data\/exclusiveMinimum must be number/,
    )
    const valid = compileValidator({
      $schema: 'http://json-schema.org/draft-06/schema#',
      exclusiveMinimum: 1,
    })
    expect(valid(2)).toBe(true)
    expect(valid(1)).toBe(false)
  })

  it('refuses a reference its meta-schema refuses, and compiles with valid ones', () => {
    const main = { type: 'object', properties: { a: { $ref: 'a.json' } } }
    expect(() => compileValidator(main, [reference('a.json', { type: 7 })])).toThrow(
      /^schema is invalid: data\/type must be equal to one of the allowed values/,
    )
    const validate = compileValidator(main, [reference('a.json', { type: 'string' })])
    expect(validate({ a: 'x' })).toBe(true)
    expect(validate({ a: 1 })).toBe(false)
  })

  it('checks a schema whose $schema names a meta-schema among its references against that reference', () => {
    const meta = {
      $id: 'https://example.com/draft-07/titled',
      type: 'object',
      required: ['title'],
    }
    const references = [reference('https://example.com/draft-07/titled', meta)]
    expect(() =>
      compileValidator({ $schema: 'https://example.com/draft-07/titled', type: 'string' }, references),
    ).toThrow("schema is invalid: data must have required property 'title'")
    const validate = compileValidator(
      { $schema: 'https://example.com/draft-07/titled', title: 'T', type: 'string' },
      references,
    )
    expect(validate('x')).toBe(true)
    expect(validate(1)).toBe(false)
  })

  it('checks every schema of a dialect with one shared instance, and never with the instance that compiles it', () => {
    // draft-06: draft-07's own meta-schema is checked by code generated ahead of time, not by an instance.
    const checks = vi.spyOn(Ajv.prototype, 'validateSchema')
    const DRAFT_06 = 'http://json-schema.org/draft-06/schema#'
    const strings = { $schema: DRAFT_06, type: 'string' }
    const integers = { $schema: DRAFT_06, type: 'integer' }
    const first = compileValidator(strings)
    const second = compileValidator(integers)
    expect(first('x')).toBe(true)
    expect(second(1)).toBe(true)
    const calls = checks.mock.calls.flatMap(([schema], index) =>
      schema === strings || schema === integers ? [index] : [],
    )
    expect(calls).toHaveLength(2)
    const [one, two] = calls.map((index) => checks.mock.contexts[index])
    expect(one).toBe(two)
    expect(calls.map((index) => checks.mock.results[index]!.value)).toEqual([true, true])
  })
})
