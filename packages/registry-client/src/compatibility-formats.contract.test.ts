import { describe, expect, it } from 'vitest'
import { contractTarget, data, http } from './test-support/contract-target.js'

// The same refusal for the three formats: a version that breaks the artifact's COMPATIBILITY rule is answered with
// 400 RuleViolationException and the registry's causes, by a real Apicurio Registry 3.3 (integration stage) and by
// InMemoryRegistry (unit stage). Each case has a single cause, so the title's list has one order.

const target = contractTarget()
const call = (method: string, path: string, body?: unknown) => http(target, method, path, body)
const CONTENT_TYPES: Record<string, string> = {
  AVRO: 'application/json',
  JSON: 'application/json',
  PROTOBUF: 'application/x-protobuf',
}

let serial = 0
/** Registers `first` as version 1 of a new artifact, sets its COMPATIBILITY rule and dry-runs `next`. */
async function refusal(type: string, level: string, first: string, next: string) {
  serial += 1
  const id = `formats-${serial}`
  const contentType = CONTENT_TYPES[type]
  const created = await call('POST', `/groups/${target.group}/artifacts`, {
    artifactId: id,
    artifactType: type,
    firstVersion: { content: { content: first, contentType } },
  })
  expect(created.status).toBe(200)
  const rule = await call('POST', `/groups/${target.group}/artifacts/${id}/rules`, {
    ruleType: 'COMPATIBILITY',
    config: level,
  })
  expect(rule.status).toBe(204)
  const answer = await call('POST', `/groups/${target.group}/artifacts/${id}/versions?dryRun=true`, {
    content: { content: next, contentType },
  })
  return { id, status: answer.status, body: data(answer) }
}

function expected(id: string, type: string, description: string, context: string) {
  const list = `${description} at ${context}`
  const title = `Incompatible artifact: ${id} [${type}], num of incompatible diffs: {1}, list of diff types: [${list}]`
  return {
    causes: [{ description, context }],
    detail: `${title} Causes: ${list}`,
    title,
    status: 400,
    name: 'RuleViolationException',
  }
}

describe('COMPATIBILITY refusals of each format', () => {
  it('refuses an Avro field changed from int to string under BACKWARD', async () => {
    const schema = (type: string) =>
      JSON.stringify({ type: 'record', name: 'R', fields: [{ name: 'a', type }] })
    const answer = await refusal('AVRO', 'BACKWARD', schema('int'), schema('string'))
    expect([answer.status, answer.body]).toEqual([
      400,
      expected(
        answer.id,
        'AVRO',
        'reader type: STRING not compatible with writer type: INT',
        '/fields/0/type',
      ),
    ])
  })

  it('refuses a JSON Schema property made required under BACKWARD', async () => {
    const schema = (required: string[]) =>
      JSON.stringify({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { id: { type: 'string' }, note: { type: 'string' } },
        required,
        additionalProperties: false,
      })
    const answer = await refusal('JSON', 'BACKWARD', schema(['id']), schema(['id', 'note']))
    expect([answer.status, answer.body]).toEqual([
      400,
      expected(answer.id, 'JSON', 'A new required property was added', '/required'),
    ])
  })

  it('refuses a Protobuf field changed from int32 to string under BACKWARD', async () => {
    const schema = (type: string) =>
      `syntax = "proto3";\npackage shop;\n\nmessage Order {\n  string id = 1;\n  ${type} quantity = 2;\n}\n`
    const answer = await refusal('PROTOBUF', 'BACKWARD', schema('int32'), schema('string'))
    expect([answer.status, answer.body]).toEqual([
      400,
      expected(
        answer.id,
        'PROTOBUF',
        'Field type changed, message Order , before: int32 , after string',
        '/Order',
      ),
    ])
  })

  it('accepts under FORWARD the JSON Schema change BACKWARD refuses', async () => {
    const schema = (required: string[]) =>
      JSON.stringify({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { id: { type: 'string' }, note: { type: 'string' } },
        required,
        additionalProperties: false,
      })
    const answer = await refusal('JSON', 'FORWARD', schema(['id']), schema(['id', 'note']))
    expect(answer.status).toBe(200)
  })
})
