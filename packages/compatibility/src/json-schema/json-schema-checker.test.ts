import { describe, expect, it } from 'vitest'
import { checkCompatibility } from '../check-compatibility.js'
import { jsonSchemaChecker } from './json-schema-checker.js'

const object = (schema: object) => JSON.stringify({ type: 'object', ...schema })
const draft7 = (schema: object) =>
  JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', ...schema })

describe('jsonSchemaChecker', () => {
  it('refuses a new required property with its path, sentence and the registry cause', () => {
    const before = object({ properties: { a: { type: 'string' } } })
    const after = object({ properties: { a: { type: 'string' } }, required: ['a'] })
    expect(jsonSchemaChecker.backwardIssues(before, after, {})).toEqual([
      {
        path: 'required',
        message: 'The property "a" is now required; data written without it is refused.',
        cause: { description: 'A new required property was added', context: '/required' },
      },
    ])
  })

  it('refuses a property added to an open object, and accepts it on a closed one', () => {
    const open = object({ properties: { a: { type: 'string' } } })
    const grown = object({ properties: { a: { type: 'string' }, b: { type: 'integer' } } })
    expect(jsonSchemaChecker.backwardIssues(open, grown, {}).map((issue) => issue.cause)).toEqual([
      { description: 'Object type property schemas narrowed', context: '/propertySchemasAdded' },
    ])
    const closed = object({ properties: { a: { type: 'string' } }, additionalProperties: false })
    const closedGrown = object({
      properties: { a: { type: 'string' }, b: { type: 'integer' } },
      additionalProperties: false,
    })
    expect(jsonSchemaChecker.backwardIssues(closed, closedGrown, {})).toEqual([])
  })

  it('reads a schema without $schema as draft 4, where const is not a keyword', () => {
    expect(
      jsonSchemaChecker.backwardIssues(JSON.stringify({ const: 1 }), JSON.stringify({ const: 2 }), {}),
    ).toEqual([])
    expect(jsonSchemaChecker.backwardIssues(draft7({ const: 1 }), draft7({ const: 2 }), {})).toEqual([
      {
        path: 'const',
        message: 'The constant changed from 1 to 2.',
        cause: { description: 'Const type value changed', context: '/const' },
      },
    ])
  })

  it('accepts a minLength added under FORWARD, as Apicurio compares a limit only when the newer schema has it', () => {
    const plain = JSON.stringify({ type: 'string' })
    const limited = JSON.stringify({ type: 'string', minLength: 3 })
    expect(
      checkCompatibility({ format: 'JSON', level: 'FORWARD', existing: [plain], proposed: limited })
        .compatible,
    ).toBe(true)
    expect(
      checkCompatibility({ format: 'JSON', level: 'BACKWARD', existing: [plain], proposed: limited })
        .compatible,
    ).toBe(false)
  })

  it('follows $refs to the references given, and cannot compare when one is missing', () => {
    const address = JSON.stringify({ type: 'object', properties: { street: { type: 'string' } } })
    const before = object({ properties: { home: { $ref: 'address.json' } } })
    const after = object({
      properties: { home: { type: 'object', properties: { street: { type: 'integer' } } } },
    })
    expect(
      jsonSchemaChecker
        .backwardIssues(before, after, { 'address.json': address })
        .map((issue) => issue.cause),
    ).toEqual([{ description: 'Subschema type changed', context: '/properties/home/properties/street' }])
    expect(() => jsonSchemaChecker.backwardIssues(before, after, {})).toThrow(
      'Unresolved JSON Schema reference: address.json',
    )
  })

  it('ends on recursive schemas, following each reference once per path', () => {
    const node = (extra: object) =>
      JSON.stringify({
        definitions: {
          Node: { type: 'object', properties: { next: { $ref: '#/definitions/Node' } }, ...extra },
        },
        $ref: '#/definitions/Node',
      })
    // the root's reference, then the one at `next` (another location), then `next`'s again: already followed
    expect(
      jsonSchemaChecker
        .backwardIssues(node({}), node({ required: ['next'] }), {})
        .map((issue) => issue.cause?.context),
    ).toEqual([
      '/[ref #]/required',
      '/[ref #]/properties/next/[ref #/definitions/Node/properties/next]/required',
    ])
  })

  it('refuses what everit cannot load, with the cause the registry lists, and lets other JSON documents but null through', () => {
    expect(jsonSchemaChecker.validate('{"type": "string"}', {}, 'FULL')).toEqual([])
    expect(jsonSchemaChecker.validate('[1]', {}, 'FULL')).toEqual([])
    expect(jsonSchemaChecker.validate('{"type": "text"}', {}, 'FULL')).toEqual([
      {
        path: '',
        message: 'The schema is not valid JSON Schema: unknown type: [text] at #.',
        cause: { description: 'unknown type: [text]', context: '#' },
      },
    ])
    expect(jsonSchemaChecker.validate('{"properties": {"a": {"minLength": "3"}}}', {}, 'FULL')).toEqual([
      {
        path: 'properties.a.minLength',
        message:
          'The schema is not valid JSON Schema: expected type: Integer, found: String at #/properties/a/minLength.',
        cause: { description: 'expected type: Integer, found: String', context: '#/properties/a/minLength' },
      },
    ])
  })

  it('follows every $ref when validating, and names the pointer step that finds nothing', () => {
    expect(
      jsonSchemaChecker
        .validate('{"definitions": {"a": {}}, "properties": {"x": {"$ref": "#/definitions/b"}}}', {}, 'FULL')
        .map((issue) => issue.cause),
    ).toEqual([{ description: 'key [b] not found', context: '#/definitions' }])
    expect(
      jsonSchemaChecker
        .validate('{"definitions": {"a": {"type": 5}}, "$ref": "#/definitions/a"}', {}, 'FULL')
        .map((issue) => issue.cause),
    ).toEqual([
      {
        description: 'expected type is one of JsonArray or String, found: Integer',
        context: '#/definitions/a/type',
      },
    ])
  })

  it('only asks for JSON at SYNTAX_ONLY, where the registry lists no cause', () => {
    expect(jsonSchemaChecker.validate('{"type": 5}', {}, 'SYNTAX_ONLY')).toEqual([])
    const issues = jsonSchemaChecker.validate('{"type": ', {}, 'SYNTAX_ONLY')
    expect(issues.map((issue) => [issue.path, issue.cause])).toEqual([['', undefined]])
  })
})
