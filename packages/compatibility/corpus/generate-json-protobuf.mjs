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
  {
    id: 'protobuf-unreadable-proto2-unlabeled',
    level: 'FULL',
    existing: [proto2('  optional int32 x = 1;')],
    proposed: proto2('  optional int32 x = 1;\n  int32 y = 2;'),
  },
  {
    id: 'protobuf-unreadable-no-syntax-unlabeled',
    level: 'FULL',
    existing: ['message A {\n  optional int32 x = 1;\n}\n'],
    proposed: 'message A {\n  int32 x = 1;\n}\n',
  },
  {
    id: 'protobuf-unreadable-proto3-required',
    level: 'FULL',
    existing: [proto3('  int32 x = 1;')],
    proposed: proto3('  int32 x = 1;\n  required int32 y = 2;'),
  },
]

function proto2(body) {
  return `syntax = "proto2";\nmessage A {\n${body}\n}\n`
}

function proto3(body) {
  return `syntax = "proto3";\nmessage A {\n${body}\n}\n`
}

/** Files Apicurio's parser reads in its own way: duplicates, groups, negative enum numbers, comments and options. */
const EDGE_PROTOBUF = [
  {
    id: 'protobuf-edge-duplicate-number',
    level: 'FULL',
    existing: [proto3('  int32 x = 1;')],
    proposed: proto3('  int32 x = 1;\n  int32 y = 1;'),
  },
  {
    id: 'protobuf-edge-duplicate-name',
    level: 'BACKWARD',
    existing: [proto3('  int32 x = 1;')],
    proposed: proto3('  int32 x = 1;\n  string x = 2;'),
  },
  {
    id: 'protobuf-edge-group-ignored',
    level: 'FULL',
    existing: [proto2('  optional int32 x = 1;')],
    proposed: proto2('  optional int32 x = 1;\n  optional group G = 2 {\n    optional int32 z = 3;\n  }'),
  },
  {
    id: 'protobuf-edge-enum-negative',
    level: 'FULL',
    existing: ['syntax = "proto3";\nenum E { A = 0; B = 1; }\n'],
    proposed: 'syntax = "proto3";\nenum E { A = 0; B = -1; }\n',
  },
  {
    id: 'protobuf-edge-comments-options',
    level: 'FULL',
    existing: [
      proto3(
        '  // the amount\n  int64 amount = 1 [deprecated = true];\n  /* a note */ string note = 2 [json_name = "n"];',
      ),
    ],
    proposed: proto3('  int64 amount = 1;\n  string note = 2;'),
  },
  {
    id: 'protobuf-edge-required-with-default',
    level: 'BACKWARD',
    existing: [proto2('  optional int32 x = 1;')],
    proposed: proto2('  optional int32 x = 1;\n  required int32 y = 2 [default = 7, deprecated = true];'),
  },
  {
    id: 'protobuf-edge-map-spacing',
    level: 'FULL',
    existing: [proto3('  map<string,int32> m = 1;')],
    proposed: proto3('  map< string , int32 > m = 1;'),
  },
  {
    id: 'protobuf-edge-stream-request',
    level: 'BACKWARD',
    existing: ['syntax = "proto3";\nmessage A {}\nservice S {\n  rpc Call (A) returns (A);\n}\n'],
    proposed:
      'syntax = "proto3";\nmessage A {}\nservice S {\n  rpc Call (stream A) returns (A) {\n    option deprecated = true;\n  }\n}\n',
  },
  {
    id: 'protobuf-edge-oneof-grown-forward',
    level: 'FORWARD',
    existing: [proto3('  oneof v {\n    int32 a = 1;\n  }')],
    proposed: proto3('  oneof v {\n    int32 a = 1;\n    string b = 2;\n  }'),
  },
  {
    id: 'protobuf-edge-hex-tag',
    level: 'FULL',
    existing: [proto3('  int32 x = 16;')],
    proposed: proto3('  int32 x = 0x10;'),
  },
]

/**
 * Cases the registry cannot answer, kept with the answer it gave once (2026-11-27) and ours, and not sent again: a
 * `reserved … to max` range makes Apicurio 3.3.3 list every number of it (536 million) and run out of memory, so it
 * answers 500 where the ranges can be compared.
 */
const REGISTRY_FAILURES_PROTOBUF = [
  {
    id: 'protobuf-exception-reserved-to-max-narrowed',
    level: 'BACKWARD',
    existing: [proto3('  int32 x = 1;\n  reserved 1000 to max;')],
    proposed: proto3('  int32 x = 1;\n  reserved 1000 to 2000;'),
    registry: {
      compatible: false,
      status: 500,
      error: 'OutOfMemoryError: OutOfMemoryError: Java heap space',
    },
    exception:
      'The registry runs out of memory listing the reserved range; the proposed version drops 536868911 reserved numbers.',
    ours: {
      compatible: false,
      causes: [{ description: '536868911 reserved fields were removed, message A', context: '/A' }],
    },
  },
  {
    id: 'protobuf-exception-reserved-to-max-kept',
    level: 'FULL',
    existing: [proto3('  int32 x = 1;\n  reserved 1000 to max;')],
    proposed: proto3('  int32 x = 1;\n  reserved 1000 to max, 5;'),
    registry: {
      compatible: false,
      status: 500,
      error: 'OutOfMemoryError: OutOfMemoryError: Java heap space',
    },
    exception:
      'The registry runs out of memory listing the reserved range; the proposed version keeps every reservation and adds one, which the forward direction counts as one reservation removed.',
    ours: {
      compatible: false,
      causes: [{ description: '1 reserved fields were removed, message A', context: '/A' }],
    },
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
  const failures = format === 'PROTOBUF' ? REGISTRY_FAILURES_PROTOBUF : []
  const out = {
    registry: 'Apicurio Registry 3.3.3',
    recordedAt: new Date().toISOString(),
    cases: [...kept, ...failures],
  }
  await writeFile(new URL(file, import.meta.url), `${JSON.stringify(out, null, 1)}\n`)
  const refused = kept.filter((item) => !item.registry.compatible).length
  console.log(`${file}: ${kept.length} cases (${refused} refused), ${failed.length} could not be set up`)
}

if (only === undefined || only === 'json')
  await run('JSON', [...jsonSchemaCases(), ...UNREADABLE_JSON], 'json-registry-verdicts.json')
if (only === undefined || only === 'protobuf')
  await run(
    'PROTOBUF',
    [...protobufCases(), ...UNREADABLE_PROTOBUF, ...EDGE_PROTOBUF],
    'protobuf-registry-verdicts.json',
  )
