import { describe, expect, it } from 'vitest'
import { checkCompatibility } from '../check-compatibility.js'
import { validateSchema } from '../validate-schema.js'

const draft7 = (schema: object) =>
  JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', ...schema })
const aString = draft7({ type: 'string' })
const verdicts = (existing: string, proposed: string) =>
  (['BACKWARD', 'FORWARD'] as const).map((level) => {
    const result = checkCompatibility({ format: 'JSON', level, existing: [existing], proposed })
    return { level, compatible: result.compatible, causes: result.issues.map((issue) => issue.cause) }
  })

describe('a JSON Schema document that is not an object', () => {
  it('reads `true`, `false`, a number, a string or an array as the empty schema, as the registry does', () => {
    for (const root of ['true', 'false', '42', '"x"', '[1]']) {
      expect(verdicts(aString, root)).toEqual([
        { level: 'BACKWARD', compatible: true, causes: [] },
        {
          level: 'FORWARD',
          compatible: false,
          causes: [{ description: 'Subschema type changed', context: '/' }],
        },
      ])
    }
    expect(verdicts('true', 'false')).toEqual([
      { level: 'BACKWARD', compatible: true, causes: [] },
      { level: 'FORWARD', compatible: true, causes: [] },
    ])
  })

  it('cannot compare `null`, which the registry fails on', () => {
    const result = checkCompatibility({
      format: 'JSON',
      level: 'BACKWARD',
      existing: [aString],
      proposed: 'null',
    })
    expect(result).toEqual({
      compatible: false,
      unreadable: 'The proposed schema is null, not a schema',
      issues: [
        { path: '', message: 'The schemas cannot be compared: The proposed schema is null, not a schema.' },
      ],
    })
  })

  it('still refuses a referenced document that is not an object', () => {
    const result = checkCompatibility({
      format: 'JSON',
      level: 'BACKWARD',
      existing: [draft7({ $ref: 'a.json' })],
      proposed: draft7({ $ref: 'a.json' }),
      references: { 'a.json': 'true' },
    })
    expect(result.unreadable).toBe('The referenced "a.json" schema is not a JSON object')
  })
})

describe('a $ref naming a subschema by its plain-name $id', () => {
  const address = (street: object, required: boolean) => ({
    $id: '#Address',
    type: 'object',
    properties: { street },
    ...(required ? { required: ['street'] } : {}),
  })
  const byId = (street: object, required = true) =>
    draft7({
      type: 'object',
      properties: { home: { $ref: '#Address' } },
      definitions: { Address: address(street, required) },
    })

  it('is resolved to the subschema with that $id, not read as a JSON pointer', () => {
    expect(
      verdicts(byId({ type: 'string', minLength: 10 }), byId({ type: 'string', minLength: 5 }, false)),
    ).toEqual([
      { level: 'BACKWARD', compatible: true, causes: [] },
      {
        level: 'FORWARD',
        compatible: false,
        causes: [
          {
            description: 'A new required property was added',
            context: '/properties/home/[ref #/properties/home]/required',
          },
          {
            description: 'String type min length increased',
            context: '/properties/home/[ref #/properties/home]/properties/street/minLength',
          },
        ],
      },
    ])
  })

  it('compares equal to the same subschema written inline', () => {
    const inline = draft7({
      type: 'object',
      properties: {
        home: { type: 'object', properties: { street: { type: 'string' } }, required: ['street'] },
      },
    })
    expect(verdicts(byId({ type: 'string' }), inline)).toEqual([
      { level: 'BACKWARD', compatible: true, causes: [] },
      { level: 'FORWARD', compatible: true, causes: [] },
    ])
  })

  it('is valid under the VALIDITY rule at FULL', () => {
    expect(validateSchema({ format: 'JSON', schema: byId({ type: 'string' }) })).toEqual([])
  })

  it('names the whole document when no subschema has that $id, as everit drops the piece before the first slash', () => {
    // the registry's VALIDITY rule at FULL accepts the first three and refuses the last two with these causes
    const causes = (schema: object) =>
      validateSchema({ format: 'JSON', schema: draft7(schema) }).map((issue) => issue.cause)
    expect(causes({ properties: { home: { $ref: '#Nowhere' } } })).toEqual([])
    expect(causes({ definitions: { A: { $id: '#A', type: 'strin' } } })).toEqual([])
    expect(
      causes({
        $id: 'http://example.com/r.json',
        properties: { home: { $ref: '#A' } },
        definitions: { A: { $id: '#A', type: 'string' } },
      }),
    ).toEqual([])
    expect(causes({ properties: { home: { $ref: '#/definitions/nowhere' } } })).toEqual([
      { description: 'key [definitions] not found', context: '#' },
    ])
    expect(
      causes({ properties: { home: { $ref: '#A' } }, definitions: { A: { $id: '#A', type: 'strin' } } }),
    ).toEqual([{ description: 'unknown type: [strin]', context: '#/definitions/A' }])
  })

  it('still needs a reference for an absolute $ref, even one a subschema has as its $id, as the registry does', () => {
    const schema = draft7({
      properties: { a: { $ref: 'https://example.com/a.json' } },
      definitions: { a: { $id: 'https://example.com/a.json', type: 'string' } },
    })
    const result = checkCompatibility({ format: 'JSON', level: 'FULL', existing: [schema], proposed: schema })
    expect(result.unreadable).toBe('Unresolved JSON Schema reference: https://example.com/a.json')
  })
})
