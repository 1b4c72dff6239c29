import { readFileSync } from 'node:fs'
import { Ajv, type ValidateFunction } from 'ajv'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InMemoryRegistry } from '../in-memory-registry.js'
import { call, createArtifactBody, json, record, register } from './test-support/http.js'

// Every JSON answer of InMemoryRegistry is checked against the component schemas of Apicurio's own OpenAPI file
// (a copy in ../openapi). Object schemas are made closed (no members beyond those declared), so a misspelt member
// fails too, and dates must have Apicurio's exact format.

type Schema = Record<string, unknown>

/** OpenAPI 3.0 to JSON Schema: `nullable: true` becomes a `null` alternative; declared objects become closed. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema)
  if (typeof node !== 'object' || node === null) return node
  const schema: Schema = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'nullable') continue
    schema[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, toJsonSchema(v)]))
        : toJsonSchema(value)
  }
  if ('properties' in schema && !('additionalProperties' in schema) && !('allOf' in schema)) {
    schema.additionalProperties = false
  }
  if ((node as Schema).nullable === true) return { anyOf: [schema, { type: 'null' }] }
  return schema
}

const openapi = JSON.parse(
  readFileSync(new URL('../openapi/apicurio-registry-v3-openapi.json', import.meta.url), 'utf8'),
)
const ajv = new Ajv({ strict: false, allErrors: true })
ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) })
ajv.addFormat('int32', {
  type: 'number',
  validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31,
})
ajv.addSchema({ components: { schemas: toJsonSchema(openapi.components.schemas) } }, 'openapi')

function validator(name: string): ValidateFunction {
  const validate = ajv.getSchema(`openapi#/components/schemas/${name}`)
  if (validate === undefined) throw new TypeError(`No schema ${name} in the OpenAPI file`)
  return validate
}

let registry: InMemoryRegistry
let url: string

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  url = registry.url
  await register(url, 'g', 'child', '{"type":"record","name":"C","namespace":"n","fields":[]}')
  await call(url, 'POST', '/groups/g/artifacts', {
    ...createArtifactBody('parent', '{"type":"record","name":"P","fields":[{"name":"c","type":"n.C"}]}', {
      references: [{ groupId: 'g', artifactId: 'child', version: '1', name: 'n.C' }],
    }),
    name: 'Parent',
    description: 'A parent',
    labels: { team: 'x' },
  })
})

afterAll(async () => {
  await registry.close()
})

beforeAll(async () => {
  await register(url, 'g', 'ruled', record('A'))
  await call(url, 'POST', '/groups/g/artifacts/ruled/rules', { ruleType: 'COMPATIBILITY', config: 'FULL' })
})

describe('answers match the OpenAPI component schemas', () => {
  it.each([
    ['POST', '/groups/g/artifacts', createArtifactBody('a', record('A')), 'CreateArtifactResponse'],
    ['POST', '/groups/g/artifacts', { artifactId: 'empty', artifactType: 'AVRO' }, 'CreateArtifactResponse'],
    [
      'POST',
      '/groups/g/artifacts/a/versions',
      { content: { content: record('B'), contentType: 'application/json' } },
      'VersionMetaData',
    ],
    ['GET', '/groups/g/artifacts/parent', undefined, 'ArtifactMetaData'],
    ['GET', '/groups/g/artifacts/parent/versions/branch=latest', undefined, 'VersionMetaData'],
    ['GET', '/groups/g/artifacts', undefined, 'ArtifactSearchResults'],
    ['GET', '/groups/g/artifacts/a/versions', undefined, 'VersionSearchResults'],
    ['GET', '/groups/g', undefined, 'GroupMetaData'],
    ['GET', '/system/info', undefined, 'SystemInfo'],
    ['GET', '/groups/g/artifacts/none', undefined, 'ProblemDetails'],
    ['POST', '/groups/g/artifacts', createArtifactBody('a', record('A')), 'ProblemDetails'],
    ['GET', '/ids/globalIds/99', undefined, 'ProblemDetails'],
    ['DELETE', '/groups/g', undefined, 'ProblemDetails'],
    ['GET', '/groups/g/artifacts/ruled/rules/COMPATIBILITY', undefined, 'Rule'],
    ['PUT', '/groups/g/artifacts/ruled/rules/COMPATIBILITY', { config: 'FULL' }, 'Rule'],
    ['GET', '/groups/g/rules/VALIDITY', undefined, 'ProblemDetails'],
  ])('%s %s is a %s', async (method, path, body, schema) => {
    const result = await call(url, method, path, body)
    const validate = validator(schema)
    expect(validate(json(result)), ajv.errorsText(validate.errors)).toBe(true)
  })

  it('references are ArtifactReference arrays', async () => {
    const validate = validator('ArtifactReference')
    const references = json(await call(url, 'GET', '/ids/globalIds/2/references'))
    expect(references).toHaveLength(1)
    for (const reference of references)
      expect(validate(reference), ajv.errorsText(validate.errors)).toBe(true)
  })

  it('rule lists are arrays of RuleType', async () => {
    const validate = validator('RuleType')
    const types = json(await call(url, 'GET', '/groups/g/artifacts/ruled/rules'))
    expect(types).toEqual(['COMPATIBILITY'])
    for (const type of types) expect(validate(type), ajv.errorsText(validate.errors)).toBe(true)
  })

  it('a rule violation is a RuleViolationProblemDetails: ProblemDetails with RuleViolationCause causes', async () => {
    // The schema is an allOf of { causes } and ProblemDetails; the closed copies here check the two halves.
    const content = record('A', '[{"name":"n","type":"int"}]')
    const body = json(
      await call(url, 'POST', '/groups/g/artifacts/ruled/versions?dryRun=true', {
        content: { content, contentType: 'application/json' },
      }),
    )
    const { causes, ...problem } = body
    expect(causes).toEqual([{ description: 'n', context: '/fields/0' }])
    const cause = validator('RuleViolationCause')
    for (const item of causes) expect(cause(item), ajv.errorsText(cause.errors)).toBe(true)
    const details = validator('ProblemDetails')
    expect(details(problem), ajv.errorsText(details.errors)).toBe(true)
  })

  it('catches a member the schema does not declare', () => {
    expect(validator('ArtifactReference')({ groupId: 'g', artifactId: 'a', name: 'n', extra: 1 })).toBe(false)
    expect(
      validator('VersionMetaData')({ version: '1', owner: '', createdOn: '2026-01-01T00:00:00.000Z' }),
    ).toBe(false)
  })
})
