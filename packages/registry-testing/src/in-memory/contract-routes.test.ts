import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { InMemoryRegistry } from '../in-memory-registry.js'
import { call, type HttpResult, json, record, register } from './test-support/http.js'

let registry: InMemoryRegistry
let url: string

beforeEach(async () => {
  registry = await InMemoryRegistry.start()
  url = registry.url
  await register(url, 'g', 'a', record('A'))
})

afterEach(async () => {
  await registry.close()
})

const RULESET_PATHS = [
  '/admin/contracts/ruleset',
  '/groups/g/artifacts/a/contract/ruleset',
  '/groups/default/artifacts/nowhere/contract/ruleset',
  '/groups/g/artifacts/a/versions/1/contract/ruleset',
  '/groups/g/artifacts/a/versions/branch=latest/contract/ruleset',
]

const RULE = { name: 'r', kind: 'CONDITION', type: 'CEL', mode: 'WRITE', expr: 'true' }

function problem(result: HttpResult): unknown[] {
  const body = json(result)
  return [result.status, body.name, body.title, body.detail]
}

describe('PUT of a data-contract ruleset with a malformed body', () => {
  it.each(
    RULESET_PATHS.flatMap((path) =>
      ['null', '[]', '[{"domainRules":[]}]', '"text"', '42', 'true'].map((body) => [path, body]),
    ),
  )(
    '%s answers a body of %s with the 400 ProblemDetails of any JSON body that is not an object',
    async (path, body) => {
      const result = await call(url, 'PUT', path, body)
      expect(result.headers.get('content-type')).toBe('application/json')
      expect(problem(result)).toEqual([
        400,
        'BadRequestException',
        'Not able to deserialize data provided.',
        'BadRequestException: Not able to deserialize data provided.',
      ])
    },
  )

  it.each(RULESET_PATHS)('%s answers an empty body as a missing required body', async (path) => {
    const result = await call(url, 'PUT', path, '  ')
    expect(problem(result)).toEqual([
      400,
      'MissingRequiredParameterException',
      'Request is missing a required parameter: body',
      'MissingRequiredParameterException: Request is missing a required parameter: body',
    ])
  })

  it.each(RULESET_PATHS)('%s answers text that is not JSON with the bare 400 text', async (path) => {
    const result = await call(url, 'PUT', path, '{"domainRules":')
    expect([result.status, result.text]).toEqual([400, 'Not able to deserialize data provided.'])
  })

  it.each([
    [{ domainRules: [null] }, 'body.domainRules[0]'],
    [{ domainRules: [RULE, 7] }, 'body.domainRules[1]'],
    [{ domainRules: [[RULE]] }, 'body.domainRules[0]'],
    [{ domainRules: [{ ...RULE, name: undefined }] }, 'body.domainRules[0].name'],
    [{ domainRules: [{ ...RULE, kind: 1 }] }, 'body.domainRules[0].kind'],
    [{ migrationRules: [{ ...RULE, type: null }] }, 'body.migrationRules[0].type'],
    [{ migrationRules: [RULE, { ...RULE, mode: ['WRITE'] }] }, 'body.migrationRules[1].mode'],
  ])('answers the rules of %j with a 400 naming the missing %s', async (body, parameter) => {
    for (const path of RULESET_PATHS) {
      const result = await call(url, 'PUT', path, body)
      expect(problem(result)).toEqual([
        400,
        'MissingRequiredParameterException',
        `Request is missing a required parameter: ${parameter}`,
        `MissingRequiredParameterException: Request is missing a required parameter: ${parameter}`,
      ])
    }
  })

  it('keeps the ruleset it had when a PUT is refused', async () => {
    const path = '/groups/g/artifacts/a/contract/ruleset'
    expect((await call(url, 'PUT', path, { domainRules: [RULE] })).status).toBe(200)
    expect((await call(url, 'PUT', path, 'null')).status).toBe(400)
    expect((await call(url, 'PUT', path, { domainRules: [RULE, {}] })).status).toBe(400)
    expect(json(await call(url, 'GET', path)).domainRules.map((r: { name: string }) => r.name)).toEqual(['r'])
  })

  it('still stores a well-formed ruleset whose lists are absent as empty', async () => {
    const result = await call(url, 'PUT', '/admin/contracts/ruleset', {})
    expect([result.status, result.text]).toEqual([200, '{"domainRules":[],"migrationRules":[]}'])
  })
})
