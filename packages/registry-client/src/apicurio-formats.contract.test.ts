import { describe, expect, it } from 'vitest'
import { RegistryClient } from './registry-client.js'
import { contractTarget, data, http } from './test-support/contract-target.js'

// JSON Schema and Protobuf artifacts, as a real Apicurio Registry 3.3.3 stores and serves them: content types,
// canonical matching under FIND_OR_CREATE_VERSION, and references=DEREFERENCE. Runs against InMemoryRegistry and
// the real registry.

const target = contractTarget()
const call = (method: string, path: string, body?: unknown) => http(target, method, path, body)

async function create(
  artifactId: string,
  artifactType: string,
  content: string,
  options: { query?: string; references?: unknown[] } = {},
) {
  const contentType = artifactType === 'PROTOBUF' ? 'application/x-protobuf' : 'application/json'
  const answer = await call('POST', `/groups/${target.group}/artifacts${options.query ?? ''}`, {
    artifactId,
    artifactType,
    firstVersion: {
      content: { content, contentType, ...(options.references ? { references: options.references } : {}) },
    },
  })
  expect(answer.status).toBe(200)
  return data(answer).version as {
    globalId: number
    contentId: number
    version: string
    artifactType: string
  }
}

const ADDRESS = JSON.stringify({
  $id: 'https://example.com/address.json',
  type: 'object',
  properties: { city: { type: 'string' } },
})
const ORDER = JSON.stringify({
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { ship: { $ref: 'address.json' } },
})
const MONEY =
  'syntax = "proto3";\npackage shop.common;\nmessage Money { string currency = 1; int64 units = 2; }\n'
const PAYMENT =
  'syntax = "proto3";\npackage shop;\nimport "common/money.proto";\nmessage Payment { int64 id = 1; shop.common.Money amount = 2; }\n'

describe('JSON Schema artifacts', () => {
  it('are served as application/json under their type, the text as registered', async () => {
    const address = await create('address', 'JSON', ADDRESS)
    expect(address.artifactType).toBe('JSON')
    const answer = await call('GET', `/ids/globalIds/${address.globalId}`)
    expect([answer.status, answer.contentType, answer.text]).toEqual([200, 'application/json', ADDRESS])
  })

  it('find the same schema written otherwise under canonical=true', async () => {
    const first = await create('canon-json', 'JSON', ADDRESS)
    const spaced = JSON.stringify(JSON.parse(ADDRESS), null, 2)
    const found = await create('canon-json', 'JSON', spaced, {
      query: '?ifExists=FIND_OR_CREATE_VERSION&canonical=true',
    })
    expect([found.version, found.globalId]).toEqual(['1', first.globalId])
  })

  it('inline the referenced schema (without its $id) with references=DEREFERENCE, as Jackson prints it', async () => {
    await create('address-ref', 'JSON', ADDRESS)
    const order = await create('order', 'JSON', ORDER, {
      references: [{ groupId: target.group, artifactId: 'address-ref', version: '1', name: 'address.json' }],
    })
    const preserved = await call('GET', `/ids/globalIds/${order.globalId}`)
    expect(preserved.text).toBe(ORDER)
    const answer = await call('GET', `/ids/globalIds/${order.globalId}?references=DEREFERENCE`)
    expect([answer.status, answer.contentType]).toEqual([200, 'application/json'])
    expect(answer.text).toBe(
      [
        '{',
        '  "$schema" : "http://json-schema.org/draft-07/schema#",',
        '  "type" : "object",',
        '  "properties" : {',
        '    "ship" : {',
        '      "type" : "object",',
        '      "properties" : {',
        '        "city" : {',
        '          "type" : "string"',
        '        }',
        '      }',
        '    }',
        '  }',
        '}',
      ].join('\n'),
    )
  })
})

describe('Protobuf artifacts', () => {
  it('are served as application/x-protobuf, the text as registered, with their references', async () => {
    await create('money', 'PROTOBUF', MONEY)
    const payment = await create('payment', 'PROTOBUF', PAYMENT, {
      references: [{ groupId: target.group, artifactId: 'money', version: '1', name: 'common/money.proto' }],
    })
    const answer = await call('GET', `/ids/globalIds/${payment.globalId}`)
    expect([answer.status, answer.contentType, answer.text]).toEqual([200, 'application/x-protobuf', PAYMENT])
    const byContent = await call('GET', `/ids/contentIds/${payment.contentId}`)
    expect([byContent.contentType, byContent.text]).toEqual(['application/x-protobuf', PAYMENT])
    const references = await call('GET', `/ids/globalIds/${payment.globalId}/references`)
    expect(data(references)).toEqual([
      { groupId: target.group, artifactId: 'money', version: '1', name: 'common/money.proto' },
    ])
  })

  it('find the same .proto written otherwise under canonical=true', async () => {
    const first = await create('canon-proto', 'PROTOBUF', MONEY)
    const reformatted = MONEY.replace('int64 units = 2;', 'int64   units=2;')
    const found = await create('canon-proto', 'PROTOBUF', reformatted, {
      query: '?ifExists=FIND_OR_CREATE_VERSION&canonical=true',
    })
    expect([found.version, found.globalId]).toEqual(['1', first.globalId])
    const other = MONEY.replace('units = 2', 'cents = 2')
    const added = await create('canon-proto', 'PROTOBUF', other, {
      query: '?ifExists=FIND_OR_CREATE_VERSION&canonical=true',
    })
    expect(added.version).toBe('2')
  })
})

describe('the artifact type behind an id', () => {
  it('is told by the content lookup of a globalId, for Avro, JSON Schema and Protobuf alike, not of a contentId', async () => {
    const avro = await create('typed-avro', 'AVRO', '{"type":"record","name":"T","fields":[]}')
    const json = await create('typed-json', 'JSON', ADDRESS)
    const proto = await create('typed-proto', 'PROTOBUF', MONEY)
    // A client that registered nothing: everything it knows comes from the id lookups.
    const client = new RegistryClient({ url: target.url, groupId: target.group })
    try {
      const types = [
        (await client.getSchemaByGlobalId(avro.globalId)).artifactType,
        (await client.getSchemaByContentId(avro.contentId)).artifactType,
        (await client.getSchemaByGlobalId(json.globalId)).artifactType,
        (await client.getSchemaByContentId(json.contentId)).artifactType,
        (await client.getSchemaByGlobalId(proto.globalId)).artifactType,
        (await client.getSchemaByContentId(proto.contentId)).artifactType,
      ]
      // A content may be shared by versions of several artifacts: its lookup names no type.
      expect(types).toEqual(['AVRO', undefined, 'JSON', undefined, 'PROTOBUF', undefined])
    } finally {
      await client.close()
    }
  })
})
