import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { InMemoryRegistry } from '../in-memory-registry.js'
import { call, createArtifactBody, type HttpResult, json, record } from './test-support/http.js'

// Where Apicurio 3.3 answers a malformed request with a 500 (it fails late, in a provider lookup or the database),
// InMemoryRegistry answers the registry's 400 instead: a malformed request is never a 500 here.

let registry: InMemoryRegistry
let url: string

beforeEach(async () => {
  registry = await InMemoryRegistry.start()
  url = registry.url
})

afterEach(async () => {
  await registry.close()
})

const A = record('A')
const TYPES =
  'PROTOBUF, OPENAPI, ASYNCAPI, JSON, AVRO, GRAPHQL, KCONNECT, WSDL, XSD, XML, AGENT_CARD, MCP_TOOL, ' +
  'ICEBERG_TABLE, ICEBERG_VIEW, OPENRPC, MODEL_SCHEMA, PROMPT_TEMPLATE, ODCS_CONTRACT, THRIFT'

function problem(result: HttpResult): unknown[] {
  const body = json(result)
  return [result.status, body.name, body.title, body.detail]
}

describe('a malformed request InMemoryRegistry answers with a 400 where Apicurio answers 500', () => {
  it.each([
    ['avro', 'avro'],
    ['__proto__', '__proto__'],
    [7, '7'],
    [true, 'true'],
  ])(
    'an artifactType of %j is an InvalidArtifactTypeException and registers nothing',
    async (type, shown) => {
      const body = { ...createArtifactBody('x', A), artifactType: type }
      const result = await call(url, 'POST', '/groups/g/artifacts', body)
      const title = `Unknown artifact type '${shown}': expected one of ${TYPES}.`
      expect(problem(result)).toEqual([
        400,
        'InvalidArtifactTypeException',
        title,
        `InvalidArtifactTypeException: ${title}`,
      ])
      expect((await call(url, 'GET', '/groups/g/artifacts/x')).status).toBe(404)
    },
  )

  it.each([
    [{ groupId: 'g', artifactId: 'y', name: 'n.Y' }, 'version'],
    [{ groupId: 'g', version: '1', name: 'n.Y' }, 'artifactId'],
    [{ groupId: 'g', artifactId: 'y', version: '1' }, 'name'],
    [{ groupId: 'g', artifactId: { x: 1 }, version: '1', name: 'n.Y' }, 'artifactId'],
  ])(
    'a reference %j without a usable %s is a MissingRequiredParameterException naming it',
    async (reference, field) => {
      const created = await call(
        url,
        'POST',
        '/groups/g/artifacts',
        createArtifactBody('x', A, { references: [reference] }),
      )
      const parameter = `body.firstVersion.content.references[0].${field}`
      const title = `Request is missing a required parameter: ${parameter}`
      expect(problem(created)).toEqual([
        400,
        'MissingRequiredParameterException',
        title,
        `MissingRequiredParameterException: ${title}`,
      ])
      expect((await call(url, 'GET', '/groups/g/artifacts/x')).status).toBe(404)
    },
  )

  it('names the reference of a new version by its place in the CreateVersion body', async () => {
    expect((await call(url, 'POST', '/groups/g/artifacts', createArtifactBody('x', A))).status).toBe(200)
    const created = await call(url, 'POST', '/groups/g/artifacts/x/versions', {
      content: {
        content: record('B'),
        contentType: 'application/json',
        references: [
          { groupId: 'g', artifactId: 'x', version: '1', name: 'A' },
          { artifactId: 'x', name: 'A' },
        ],
      },
    })
    expect(problem(created).slice(0, 3)).toEqual([
      400,
      'MissingRequiredParameterException',
      'Request is missing a required parameter: body.content.references[1].version',
    ])
  })

  it.each([
    ['/groups/g/artifacts', 'offset', '-1'],
    ['/groups/g/artifacts/x/versions', 'limit', '-5'],
    ['/search/versions', 'offset', '-9223372036854775809'],
    ['/search/versions', 'limit', '-0001'],
  ])('GET %s with %s=%s is an InvalidParameterValueException', async (path, name, value) => {
    expect((await call(url, 'POST', '/groups/g/artifacts', createArtifactBody('x', A))).status).toBe(200)
    const result = await call(url, 'GET', `${path}?${name}=${value}`)
    const title = `Invalid value '${value}' for parameter '${name}': it must be 0 or more.`
    expect(problem(result)).toEqual([
      400,
      'InvalidParameterValueException',
      title,
      `InvalidParameterValueException: ${title}`,
    ])
  })

  it('still pages with an offset of 0 and a limit beyond any count', async () => {
    expect((await call(url, 'POST', '/groups/g/artifacts', createArtifactBody('x', A))).status).toBe(200)
    const result = await call(url, 'GET', '/search/versions?offset=-0&limit=99999999999999999999')
    expect([result.status, json(result).count]).toEqual([200, 1])
  })
})
