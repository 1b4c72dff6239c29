// Generates the JSON Schema and Protobuf cases and records the verdict of a real Apicurio Registry 3 for each:
//
//   X_SERDE_TEST_REGISTRY_URL=http://127.0.0.1:18080/apis/registry/v3 node generate-json-protobuf.mjs [json|protobuf]
//
// writes json-registry-verdicts.json and protobuf-registry-verdicts.json beside this file. Artifacts go to the groups
// `<prefix>-json` and `<prefix>-protobuf` (prefix from X_SERDE_CORPUS_GROUP_PREFIX, default `compat-formats`); only
// artifact-level rules are set.

import { writeFile } from 'node:fs/promises'
import { jsonSchemaCases } from './json-schema-cases.mjs'
import { protobufCases } from './protobuf-cases.mjs'
import { recordAll } from './registry-verdicts.mjs'

const base = process.env.X_SERDE_TEST_REGISTRY_URL
if (base === undefined) {
  console.error('set X_SERDE_TEST_REGISTRY_URL to the registry, e.g. http://127.0.0.1:18080/apis/registry/v3')
  process.exit(2)
}
const prefix = process.env.X_SERDE_CORPUS_GROUP_PREFIX ?? 'compat-formats'
const only = process.argv[2]

/** Schemas Apicurio cannot compare: the registry answers them with an error, which refuses the version. */
const UNREADABLE_JSON = [
  {
    id: 'json-unreadable-not-json',
    level: 'BACKWARD',
    existing: ['{"type":"object"}'],
    proposed: '{"type": "object"',
  },
  {
    id: 'json-unreadable-draft4-numeric-exclusive',
    level: 'BACKWARD',
    existing: ['{"type":"number","exclusiveMinimum":1}'],
    proposed: '{"type":"number","exclusiveMinimum":2}',
  },
  {
    id: 'json-unreadable-unresolved-ref',
    level: 'BACKWARD',
    existing: ['{"type":"object","properties":{"a":{"$ref":"missing.json"}}}'],
    proposed: '{"type":"object","properties":{"a":{"type":"string"}}}',
  },
  {
    id: 'json-unreadable-unknown-type',
    level: 'FORWARD',
    existing: ['{"type":"object"}'],
    proposed: '{"type":"obj"}',
  },
  {
    id: 'json-unreadable-none-level',
    level: 'NONE',
    existing: ['{"type":"object"}'],
    proposed: '{"type":"obj"}',
  },
]
const UNREADABLE_PROTOBUF = [
  {
    id: 'protobuf-unreadable-syntax',
    level: 'BACKWARD',
    existing: ['syntax = "proto3";\nmessage A { int32 x = 1; }\n'],
    proposed: 'syntax = "proto3";\nmessage A { int32 x = 1 \n',
  },
  {
    id: 'protobuf-unreadable-existing-ok-none',
    level: 'NONE',
    existing: ['syntax = "proto3";\nmessage A { int32 x = 1; }\n'],
    proposed: 'syntax = "proto3";\nmessage A { int32 x = 1 \n',
  },
]

async function run(format, cases, file) {
  const recorded = await recordAll(
    base,
    `${prefix}-${format === 'JSON' ? 'json' : 'protobuf'}`,
    format,
    cases,
  )
  const failed = recorded.filter((item) => item.registry.setupFailed !== undefined)
  const kept = recorded.filter((item) => item.registry.setupFailed === undefined)
  for (const item of failed) console.error(`${item.id}: ${item.registry.setupFailed}`)
  const out = { registry: 'Apicurio Registry 3.3.3', recordedAt: new Date().toISOString(), cases: kept }
  await writeFile(new URL(file, import.meta.url), `${JSON.stringify(out, null, 1)}\n`)
  const refused = kept.filter((item) => !item.registry.compatible).length
  console.log(`${file}: ${kept.length} cases (${refused} refused), ${failed.length} could not be set up`)
}

if (only === undefined || only === 'json')
  await run('JSON', [...jsonSchemaCases(), ...UNREADABLE_JSON], 'json-registry-verdicts.json')
if (only === undefined || only === 'protobuf')
  await run('PROTOBUF', [...protobufCases(), ...UNREADABLE_PROTOBUF], 'protobuf-registry-verdicts.json')
