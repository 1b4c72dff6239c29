import { describe, expect, it } from 'vitest'
import { contractTarget, data, http } from './test-support/contract-target.js'

// Rules (global, group, artifact) and dry runs, as a real Apicurio Registry 3.3 answers them: the same suite runs
// against InMemoryRegistry (unit stage) and the real registry (integration stage). The Avro compatibility cases
// assert Apicurio's exact causes (Avro's SchemaCompatibility messages and locations).

const target = contractTarget()
const call = (method: string, path: string, body?: unknown) => http(target, method, path, body)

const record = (fields: unknown[], name = 'R') => JSON.stringify({ type: 'record', name, fields })
const A_STRING = { name: 'a', type: 'string' }

let serial = 0
/** A new Avro artifact with `first` as version 1 and, when given, a compatibility rule. */
async function artifact(first: string, compatibility?: string, type = 'AVRO'): Promise<string> {
  serial += 1
  const id = `rules-${serial}`
  const contentType = type === 'PROTOBUF' ? 'application/x-protobuf' : 'application/json'
  const created = await call('POST', `/groups/${target.group}/artifacts`, {
    artifactId: id,
    artifactType: type,
    firstVersion: { content: { content: first, contentType } },
  })
  expect(created.status).toBe(200)
  if (compatibility !== undefined) {
    const rule = await call('POST', `/groups/${target.group}/artifacts/${id}/rules`, {
      ruleType: 'COMPATIBILITY',
      config: compatibility,
    })
    expect(rule.status).toBe(204)
  }
  return id
}

function version(id: string, content: string, dryRun = true, contentType = 'application/json') {
  return call('POST', `/groups/${target.group}/artifacts/${id}/versions${dryRun ? '?dryRun=true' : ''}`, {
    content: { content, contentType },
  })
}

describe('rules of an artifact', () => {
  it('are listed, created once (409 after), read, updated and deleted as Apicurio does', async () => {
    const id = await artifact(record([A_STRING]))
    const base = `/groups/${target.group}/artifacts/${id}/rules`
    expect(data(await call('GET', base))).toEqual([])
    expect((await call('POST', base, { ruleType: 'VALIDITY', config: 'FULL' })).status).toBe(204)
    const again = await call('POST', base, { ruleType: 'VALIDITY', config: 'FULL' })
    expect([again.status, data(again)]).toEqual([
      409,
      {
        detail: "RuleAlreadyExistsException: A rule named 'VALIDITY' already exists.",
        title: "A rule named 'VALIDITY' already exists.",
        status: 409,
        name: 'RuleAlreadyExistsException',
      },
    ])
    expect((await call('POST', base, { ruleType: 'COMPATIBILITY', config: 'BACKWARD' })).status).toBe(204)
    expect(data(await call('GET', base))).toEqual(['COMPATIBILITY', 'VALIDITY'])
    const read = await call('GET', `${base}/COMPATIBILITY`)
    expect([read.status, read.text]).toEqual([200, '{"config":"BACKWARD","ruleType":"COMPATIBILITY"}'])
    const updated = await call('PUT', `${base}/COMPATIBILITY`, { config: 'FULL' })
    expect([updated.status, updated.text]).toEqual([200, '{"config":"FULL","ruleType":"COMPATIBILITY"}'])
    expect((await call('DELETE', `${base}/VALIDITY`)).status).toBe(204)
    const gone = await call('GET', `${base}/VALIDITY`)
    expect([gone.status, data(gone).name, data(gone).title]).toEqual([
      404,
      'RuleNotFoundException',
      "No rule named 'VALIDITY' was found.",
    ])
    expect((await call('DELETE', base)).status).toBe(204)
    expect(data(await call('GET', base))).toEqual([])
  })

  it('refuses a rule type Apicurio does not know, and rules of a missing artifact or group', async () => {
    const id = await artifact(record([A_STRING]))
    const unknown = await call('POST', `/groups/${target.group}/artifacts/${id}/rules`, {
      ruleType: 'NOPE',
      config: 'X',
    })
    expect([unknown.status, data(unknown).name]).toEqual([400, 'BadRequestException'])
    const noArtifact = await call('GET', `/groups/${target.group}/artifacts/missing-${target.run}/rules`)
    expect([noArtifact.status, data(noArtifact).name]).toEqual([404, 'ArtifactNotFoundException'])
    const noGroup = await call('GET', `/groups/missing-${target.run}/rules`)
    expect([noGroup.status, data(noGroup).title]).toEqual([
      404,
      `No group 'missing-${target.run}' was found.`,
    ])
  })
})

describe('COMPATIBILITY on a new version (dry run and real)', () => {
  it('refuses a field without default under BACKWARD with 400 RuleViolationException and its cause', async () => {
    const id = await artifact(record([A_STRING]), 'BACKWARD')
    const next = record([A_STRING, { name: 'b', type: 'int' }])
    for (const dryRun of [true, false]) {
      const refused = await version(id, next, dryRun)
      const list = 'b at /fields/1'
      const title = `Incompatible artifact: ${id} [AVRO], num of incompatible diffs: {1}, list of diff types: [${list}]`
      expect([refused.status, data(refused)]).toEqual([
        400,
        {
          causes: [{ description: 'b', context: '/fields/1' }],
          detail: `${title} Causes: ${list}`,
          title,
          status: 400,
          name: 'RuleViolationException',
        },
      ])
    }
    const versions = await call('GET', `/groups/${target.group}/artifacts/${id}/versions`)
    expect(data(versions).count).toBe(1)
  })

  it('accepts a compatible version: the dry run answers as if created and stores nothing', async () => {
    const id = await artifact(record([A_STRING]), 'BACKWARD')
    const next = record([A_STRING, { name: 'b', type: 'int', default: 1 }])
    const dry = await version(id, next, true)
    expect([dry.status, data(dry).version, data(dry).state]).toEqual([200, '2', 'ENABLED'])
    expect(data(await call('GET', `/groups/${target.group}/artifacts/${id}/versions`)).count).toBe(1)
    expect((await version(id, next, false)).status).toBe(200)
    expect(data(await call('GET', `/groups/${target.group}/artifacts/${id}/versions`)).count).toBe(2)
  })

  // [level, version 1, proposed version 2, the causes Apicurio lists]
  const cases: [string, string, string, { description: string; context: string }[]][] = [
    [
      'BACKWARD',
      record([A_STRING]),
      record([{ name: 'a', type: 'int' }]),
      [
        {
          description: 'reader type: INT not compatible with writer type: STRING',
          context: '/fields/0/type',
        },
      ],
    ],
    ['BACKWARD', record([{ name: 'a', type: 'int' }]), record([{ name: 'a', type: 'long' }]), []],
    [
      'BACKWARD',
      record([{ name: 'a', type: 'long' }]),
      record([{ name: 'a', type: 'int' }]),
      [{ description: 'reader type: INT not compatible with writer type: LONG', context: '/fields/0/type' }],
    ],
    ['FORWARD', record([A_STRING]), record([A_STRING, { name: 'b', type: 'int' }]), []],
    [
      'FORWARD',
      record([A_STRING, { name: 'b', type: 'int' }]),
      record([A_STRING]),
      [{ description: 'b', context: '/fields/1' }],
    ],
    [
      'BACKWARD',
      JSON.stringify({ type: 'enum', name: 'E', symbols: ['A', 'B', 'C', 'D'] }),
      JSON.stringify({ type: 'enum', name: 'E', symbols: ['A', 'B'] }),
      [{ description: '[C, D]', context: '/symbols' }],
    ],
    [
      'BACKWARD',
      record([{ name: 'a', type: ['null', 'string'] }]),
      record([{ name: 'a', type: ['null', 'int'] }]),
      [{ description: 'reader union lacking writer type: STRING', context: '/fields/0/type/1' }],
    ],
    [
      'BACKWARD',
      record([A_STRING]),
      record([A_STRING], 'S'),
      [{ description: 'expected: R', context: '/name' }],
    ],
    [
      'BACKWARD',
      JSON.stringify({ type: 'fixed', name: 'F', size: 4 }),
      JSON.stringify({ type: 'fixed', name: 'F', size: 8 }),
      [{ description: 'expected: 4, found: 8', context: '/size' }],
    ],
    [
      'FULL',
      record([A_STRING]),
      record([A_STRING, { name: 'b', type: 'int' }]),
      [{ description: 'b', context: '/fields/1' }],
    ],
    [
      'BACKWARD',
      record([A_STRING]),
      record([A_STRING, { name: 'b', type: 'int' }, { name: 'c', type: 'string' }]),
      [
        { description: 'b', context: '/fields/1' },
        { description: 'c', context: '/fields/2' },
      ],
    ],
    [
      'BACKWARD',
      record([{ name: 'n', type: { type: 'record', name: 'N', fields: [{ name: 'x', type: 'int' }] } }]),
      record([{ name: 'n', type: { type: 'record', name: 'N', fields: [{ name: 'x', type: 'string' }] } }]),
      [
        {
          description: 'reader type: STRING not compatible with writer type: INT',
          context: '/fields/0/type/fields/0/type',
        },
      ],
    ],
    [
      'BACKWARD',
      record([{ name: 'a', type: { type: 'array', items: 'int' } }]),
      record([{ name: 'a', type: { type: 'map', values: 'int' } }]),
      [{ description: 'reader type: MAP not compatible with writer type: ARRAY', context: '/fields/0/type' }],
    ],
    [
      'BACKWARD',
      record([{ name: 'a', type: 'string' }]),
      record([{ name: 'a', type: ['null', 'bytes'] }]),
      [],
    ],
  ]

  it.each(cases)(
    '%s from %s to %s lists exactly the causes Apicurio lists',
    async (level, first, next, causes) => {
      const id = await artifact(first, level)
      const answer = await version(id, next)
      if (causes.length === 0) {
        expect(answer.status).toBe(200)
        return
      }
      expect([answer.status, data(answer).name, data(answer).causes]).toEqual([
        400,
        'RuleViolationException',
        causes,
      ])
    },
  )

  it('checks every version under …_TRANSITIVE and only the latest otherwise', async () => {
    const v1 = record([A_STRING])
    const v2 = record([A_STRING, { name: 'b', type: 'int', default: 0 }])
    const v3 = record([A_STRING, { name: 'b', type: 'int' }])
    const id = await artifact(v1)
    expect((await version(id, v2, false)).status).toBe(200)
    const rules = `/groups/${target.group}/artifacts/${id}/rules`
    await call('POST', rules, { ruleType: 'COMPATIBILITY', config: 'BACKWARD' })
    // v3 reads v2 (the latest), which always has b.
    expect((await version(id, v3)).status).toBe(200)
    await call('PUT', `${rules}/COMPATIBILITY`, { config: 'BACKWARD_TRANSITIVE' })
    // v1 has no b, and v3 gives it no default.
    const refused = await version(id, v3)
    expect([refused.status, data(refused).causes]).toEqual([
      400,
      [{ description: 'b', context: '/fields/1' }],
    ])
  })

  it('takes the group rule when the artifact has none, and the artifact rule over the group rule', async () => {
    const id = await artifact(record([A_STRING]))
    const groupRules = `/groups/${target.group}/rules`
    expect((await call('POST', groupRules, { ruleType: 'COMPATIBILITY', config: 'BACKWARD' })).status).toBe(
      204,
    )
    try {
      const next = record([{ name: 'a', type: 'int' }])
      expect((await version(id, next)).status).toBe(400)
      await call('POST', `/groups/${target.group}/artifacts/${id}/rules`, {
        ruleType: 'COMPATIBILITY',
        config: 'NONE',
      })
      expect((await version(id, next)).status).toBe(200)
    } finally {
      expect((await call('DELETE', groupRules)).status).toBe(204)
    }
  })

  it('answers 422 UnprocessableSchemaException when the proposed Avro schema is not valid', async () => {
    const id = await artifact(record([A_STRING]), 'BACKWARD')
    const answer = await version(id, '{"type":"nope"}')
    expect([answer.status, data(answer).name, data(answer).title]).toEqual([
      422,
      'UnprocessableSchemaException',
      'Could not execute compatibility rule on invalid Avro schema',
    ])
  })
})

describe('VALIDITY', () => {
  it('refuses content that does not parse in its type, with each type’s message', async () => {
    const avro = await artifact('"string"')
    await call('POST', `/groups/${target.group}/artifacts/${avro}/rules`, {
      ruleType: 'VALIDITY',
      config: 'SYNTAX_ONLY',
    })
    const badAvro = await version(avro, '{"type":"nope"}')
    expect([badAvro.status, data(badAvro)]).toEqual([
      400,
      {
        causes: [],
        detail: 'Syntax violation for Avro artifact.',
        title: 'Syntax violation for Avro artifact.',
        status: 400,
        name: 'RuleViolationException',
      },
    ])
    const proto = await artifact('syntax = "proto3";\nmessage M { string a = 1; }\n', undefined, 'PROTOBUF')
    await call('POST', `/groups/${target.group}/artifacts/${proto}/rules`, {
      ruleType: 'VALIDITY',
      config: 'FULL',
    })
    const badProto = await version(proto, 'message {', true, 'application/x-protobuf')
    expect([badProto.status, data(badProto).title, data(badProto).causes]).toEqual([
      400,
      'Syntax violation for Protobuf artifact.',
      [],
    ])
    const json = await artifact('{"type":"object"}', undefined, 'JSON')
    await call('POST', `/groups/${target.group}/artifacts/${json}/rules`, {
      ruleType: 'VALIDITY',
      config: 'FULL',
    })
    const badJson = await version(json, 'not json')
    expect([badJson.status, data(badJson).title, data(badJson).causes[0].context]).toEqual([
      400,
      'Syntax or semantic violation for JSON Schema artifact.',
      '',
    ])
    expect(data(badJson).causes[0].description).toMatch(/^JSON schema not valid: /)
    const badType = await version(json, '{"type": 5}')
    expect([badType.status, data(badType).causes]).toEqual([
      400,
      [{ description: 'expected type is one of JsonArray or String, found: Integer', context: '#/type' }],
    ])
  })

  it('refuses under FULL what the Avro parser refuses beyond syntax, with no causes', async () => {
    const avro = await artifact('"string"')
    await call('POST', `/groups/${target.group}/artifacts/${avro}/rules`, {
      ruleType: 'VALIDITY',
      config: 'FULL',
    })
    const refusals = [
      '{"type":"record","fields":[]}',
      '{"type":"record","name":"A","fields":[{"name":"a","type":"int","default":"x"}]}',
      '{"type":"record","name":"A","fields":[{"name":"a","type":"int"},{"name":"a","type":"int"}]}',
      '{"type":"record","name":"A","fields":[{"name":"a","type":"Missing"}]}',
    ]
    for (const content of refusals) {
      const refused = await version(avro, content)
      expect([content, refused.status, data(refused).title, data(refused).causes]).toEqual([
        content,
        400,
        'Syntax violation for Avro artifact.',
        [],
      ])
    }
    const valid = await version(
      avro,
      '{"type":"record","name":"A","fields":[{"name":"a","type":"int","default":1}]}',
    )
    expect(valid.status).toBe(200)
  })

  it('refuses under FULL a JSON Schema everit cannot load, with the keyword and message as its cause', async () => {
    const json = await artifact('{"type":"object"}', undefined, 'JSON')
    await call('POST', `/groups/${target.group}/artifacts/${json}/rules`, {
      ruleType: 'VALIDITY',
      config: 'FULL',
    })
    const refusals: [string, { description: string; context: string }][] = [
      [
        '{"properties": {"a": {"type": "strin"}}}',
        { description: 'unknown type: [strin]', context: '#/properties/a' },
      ],
      [
        '{"type": "object", "required": [1]}',
        { description: 'expected type: String, found: Integer', context: '#/required/0' },
      ],
      [
        '{"definitions": {"a": {}}, "properties": {"x": {"$ref": "#/definitions/b"}}}',
        { description: 'key [b] not found', context: '#/definitions' },
      ],
    ]
    for (const [content, cause] of refusals) {
      const refused = await version(json, content)
      expect([content, refused.status, data(refused)]).toEqual([
        content,
        400,
        {
          causes: [cause],
          detail: `Syntax or semantic violation for JSON Schema artifact. Causes: ${cause.description} at ${cause.context}`,
          title: 'Syntax or semantic violation for JSON Schema artifact.',
          status: 400,
          name: 'RuleViolationException',
        },
      ])
    }
    for (const content of [
      '[1, 2]',
      '"text"',
      '{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "strin"}',
    ])
      expect([content, (await version(json, content)).status]).toEqual([content, 200])
  })

  it('checks only that a JSON Schema is JSON under SYNTAX_ONLY, listing no cause', async () => {
    const json = await artifact('{"type":"object"}', undefined, 'JSON')
    await call('POST', `/groups/${target.group}/artifacts/${json}/rules`, {
      ruleType: 'VALIDITY',
      config: 'SYNTAX_ONLY',
    })
    expect((await version(json, '{"type": 5}')).status).toBe(200)
    const refused = await version(json, '{"type": ')
    expect([refused.status, data(refused).title, data(refused).causes]).toEqual([
      400,
      'Syntax violation for JSON Schema artifact.',
      [],
    ])
  })

  it('refuses under FULL a .proto that does not link: an undefined type, a number used twice, an import nothing provides', async () => {
    const proto = await artifact('syntax = "proto3";\nmessage M { string a = 1; }\n', undefined, 'PROTOBUF')
    await call('POST', `/groups/${target.group}/artifacts/${proto}/rules`, {
      ruleType: 'VALIDITY',
      config: 'FULL',
    })
    const refusals = [
      'syntax = "proto3";\nmessage M { string a = 1; Missing b = 2; }\n',
      'syntax = "proto3";\nmessage M { string a = 1; int32 b = 1; }\n',
      'syntax = "proto3";\nmessage M { message N { Missing m = 1; } N n = 1; }\n',
      'syntax = "proto3";\nmessage M { map<string, Missing> m = 1; }\n',
      'syntax = "proto3";\nmessage M { string a = 1; }\nservice S { rpc Get (Missing) returns (M); }\n',
      'syntax = "proto3";\nimport "other.proto";\nmessage M { string a = 1; }\n',
      'syntax = "proto3";\nmessage M { google.protobuf.Timestamp t = 1; }\n',
    ]
    for (const content of refusals) {
      const refused = await version(proto, content, true, 'application/x-protobuf')
      expect([content, refused.status, data(refused).title, data(refused).causes]).toEqual([
        content,
        400,
        'Syntax violation for Protobuf artifact.',
        [],
      ])
    }
    const valid =
      'syntax = "proto3";\nimport "google/protobuf/timestamp.proto";\nmessage M { google.protobuf.Timestamp t = 1; message N { string s = 1; } N n = 2; map<string, N> m = 3; }\n'
    expect((await version(proto, valid, true, 'application/x-protobuf')).status).toBe(200)
  })

  it('applies a global rule to the first version of a new artifact, and nothing is created', async () => {
    expect((await call('POST', '/admin/rules', { ruleType: 'VALIDITY', config: 'FULL' })).status).toBe(204)
    try {
      expect(data(await call('GET', '/admin/rules/VALIDITY'))).toEqual({
        config: 'FULL',
        ruleType: 'VALIDITY',
      })
      const refused = await call('POST', `/groups/${target.group}/artifacts`, {
        artifactId: 'invalid-first',
        artifactType: 'AVRO',
        firstVersion: { content: { content: '{"type":"nope"}', contentType: 'application/json' } },
      })
      expect([refused.status, data(refused).name]).toEqual([400, 'RuleViolationException'])
      expect((await call('GET', `/groups/${target.group}/artifacts/invalid-first`)).status).toBe(404)
    } finally {
      expect((await call('DELETE', '/admin/rules/VALIDITY')).status).toBe(204)
    }
  })
})
