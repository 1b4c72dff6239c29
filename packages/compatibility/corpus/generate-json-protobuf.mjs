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

const D7 = 'http://json-schema.org/draft-07/schema#'
/** `{ if, then, else }`, built from entries (an object literal with a `then` key reads as a promise to linters). */
const conditional = (...parts) =>
  Object.fromEntries(['if', 'then', 'else'].slice(0, parts.length).map((key, i) => [key, parts[i]]))
const d7 = (schema) => JSON.stringify({ $schema: D7, ...schema })
const d4 = (schema) => JSON.stringify(schema)
const NODE = {
  definitions: {
    Node: { type: 'object', properties: { value: { type: 'string' }, next: { $ref: '#/definitions/Node' } } },
  },
  $ref: '#/definitions/Node',
}
const DEFS = JSON.stringify({ definitions: { A: { type: 'string', maxLength: 5 }, B: { type: 'integer' } } })

/** Keywords of drafts 6 and 7, references with fragments and base URIs, recursion, and other loader details. */
const EDGE_JSON = [
  {
    id: 'json-edge-then-narrowed',
    level: 'BACKWARD',
    existing: [d7(conditional({ properties: { a: { const: 1 } } }, { required: ['b'] }))],
    proposed: d7(conditional({ properties: { a: { const: 1 } } }, { required: ['b', 'c'] })),
  },
  {
    id: 'json-edge-then-widened',
    level: 'BACKWARD',
    existing: [d7(conditional({ properties: { a: { const: 1 } } }, { required: ['b', 'c'] }))],
    proposed: d7(conditional({ properties: { a: { const: 1 } } }, { required: ['b'] })),
  },
  {
    id: 'json-edge-if-changed',
    level: 'FULL',
    existing: [d7(conditional({ properties: { a: { const: 1 } } }, { required: ['b'] }))],
    proposed: d7(conditional({ properties: { a: { const: 2 } } }, { required: ['b'] })),
  },
  {
    id: 'json-edge-else-added',
    level: 'BACKWARD',
    existing: [d7(conditional({ properties: { a: { const: 1 } } }, { required: ['b'] }))],
    proposed: d7(conditional({ properties: { a: { const: 1 } } }, { required: ['b'] }, { required: ['c'] })),
  },
  {
    id: 'json-edge-contains-added',
    level: 'BACKWARD',
    existing: [d7({ type: 'array' })],
    proposed: d7({ type: 'array', contains: { type: 'string' } }),
  },
  {
    id: 'json-edge-contains-draft4-ignored',
    level: 'BACKWARD',
    existing: [d4({ type: 'array' })],
    proposed: d4({ type: 'array', contains: { type: 'string' } }),
  },
  {
    id: 'json-edge-property-names-added',
    level: 'BACKWARD',
    existing: [d7({ type: 'object' })],
    proposed: d7({ type: 'object', propertyNames: { maxLength: 3 } }),
  },
  {
    id: 'json-edge-property-names-narrowed',
    level: 'BACKWARD',
    existing: [d7({ type: 'object', propertyNames: { maxLength: 5 } })],
    proposed: d7({ type: 'object', propertyNames: { maxLength: 3 } }),
  },
  {
    id: 'json-edge-pattern-property-added',
    level: 'BACKWARD',
    existing: [d4({ type: 'object', patternProperties: { '^a': { type: 'string' } } })],
    proposed: d4({
      type: 'object',
      patternProperties: { '^a': { type: 'string' }, '^b': { type: 'integer' } },
    }),
  },
  {
    id: 'json-edge-pattern-property-retyped',
    level: 'FULL',
    existing: [d4({ type: 'object', patternProperties: { '^a': { type: 'string' } } })],
    proposed: d4({ type: 'object', patternProperties: { '^a': { type: 'integer' } } }),
  },
  {
    id: 'json-edge-property-dependency-grown',
    level: 'BACKWARD',
    existing: [d4({ type: 'object', dependencies: { a: ['b'] } })],
    proposed: d4({ type: 'object', dependencies: { a: ['b', 'c'] } }),
  },
  {
    id: 'json-edge-property-dependency-added',
    level: 'BACKWARD',
    existing: [d4({ type: 'object', dependencies: { a: ['b'] } })],
    proposed: d4({ type: 'object', dependencies: { a: ['b'], c: ['d'] } }),
  },
  {
    id: 'json-edge-schema-dependency-narrowed',
    level: 'BACKWARD',
    existing: [d4({ type: 'object', dependencies: { a: { required: ['b'] } } })],
    proposed: d4({ type: 'object', dependencies: { a: { required: ['b', 'c'] } } }),
  },
  {
    id: 'json-edge-tuple-item-added-closed',
    level: 'BACKWARD',
    existing: [d4({ type: 'array', items: [{ type: 'string' }], additionalItems: false })],
    proposed: d4({ type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false }),
  },
  {
    id: 'json-edge-tuple-item-added-open',
    level: 'BACKWARD',
    existing: [d4({ type: 'array', items: [{ type: 'string' }] })],
    proposed: d4({ type: 'array', items: [{ type: 'string' }, { type: 'integer' }] }),
  },
  {
    id: 'json-edge-tuple-item-removed',
    level: 'BACKWARD',
    existing: [d4({ type: 'array', items: [{ type: 'string' }, { type: 'integer' }] })],
    proposed: d4({ type: 'array', items: [{ type: 'string' }] }),
  },
  {
    id: 'json-edge-tuple-item-retyped',
    level: 'FULL',
    existing: [d4({ type: 'array', items: [{ type: 'string' }, { type: 'integer' }] })],
    proposed: d4({ type: 'array', items: [{ type: 'string' }, { type: 'number' }] }),
  },
  {
    id: 'json-edge-additional-items-schema',
    level: 'FULL',
    existing: [d4({ type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'string' } })],
    proposed: d4({ type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'integer' } }),
  },
  {
    id: 'json-edge-not-narrowed',
    level: 'BACKWARD',
    existing: [d4({ not: { type: 'string' } })],
    proposed: d4({ not: { type: ['string', 'null'] } }),
  },
  {
    id: 'json-edge-not-widened',
    level: 'BACKWARD',
    existing: [d4({ not: { type: ['string', 'null'] } })],
    proposed: d4({ not: { type: 'string' } }),
  },
  {
    id: 'json-edge-recursive-ref',
    level: 'FULL',
    existing: [d4(NODE)],
    proposed: d4({ ...NODE, definitions: { Node: { ...NODE.definitions.Node, required: ['value'] } } }),
  },
  {
    id: 'json-edge-recursive-ref-same',
    level: 'FULL_TRANSITIVE',
    existing: [d4(NODE), d4(NODE)],
    proposed: d4(NODE),
  },
  {
    id: 'json-edge-content-encoding-added',
    level: 'BACKWARD',
    existing: [d7({ type: 'string' })],
    proposed: d7({ type: 'string', contentEncoding: 'base64' }),
  },
  {
    id: 'json-edge-content-media-type-changed',
    level: 'FULL',
    existing: [d7({ type: 'string', contentMediaType: 'text/plain' })],
    proposed: d7({ type: 'string', contentMediaType: 'text/html' }),
  },
  {
    id: 'json-edge-format-uuid-draft7',
    level: 'BACKWARD',
    existing: [d7({ type: 'string' })],
    proposed: d7({ type: 'string', format: 'uuid' }),
  },
  {
    id: 'json-edge-format-date-draft4',
    level: 'BACKWARD',
    existing: [d4({ type: 'string' })],
    proposed: d4({ type: 'string', format: 'date' }),
  },
  {
    id: 'json-edge-format-date-draft7',
    level: 'BACKWARD',
    existing: [d7({ type: 'string' })],
    proposed: d7({ type: 'string', format: 'date' }),
  },
  {
    id: 'json-edge-format-changed',
    level: 'BACKWARD',
    existing: [d7({ type: 'string', format: 'email' })],
    proposed: d7({ type: 'string', format: 'hostname' }),
  },
  {
    id: 'json-edge-draft6-exclusive',
    level: 'BACKWARD',
    existing: [
      JSON.stringify({
        $schema: 'http://json-schema.org/draft-06/schema#',
        type: 'number',
        exclusiveMaximum: 10,
      }),
    ],
    proposed: JSON.stringify({
      $schema: 'http://json-schema.org/draft-06/schema#',
      type: 'number',
      exclusiveMaximum: 5,
    }),
  },
  {
    id: 'json-edge-draft2020-unreadable',
    level: 'BACKWARD',
    existing: [JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'string' })],
    proposed: JSON.stringify({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'string',
      maxLength: 3,
    }),
  },
  {
    id: 'json-edge-nullable-dropped',
    level: 'BACKWARD',
    existing: [d4({ type: 'object', properties: { a: { type: ['string', 'null'] } } })],
    proposed: d4({ type: 'object', properties: { a: { type: 'string' } } }),
  },
  {
    id: 'json-edge-true-to-false',
    level: 'BACKWARD',
    existing: [d7({ type: 'object', properties: { a: true } })],
    proposed: d7({ type: 'object', properties: { a: false } }),
  },
  {
    id: 'json-edge-false-to-true',
    level: 'BACKWARD',
    existing: [d7({ type: 'object', properties: { a: false } })],
    proposed: d7({ type: 'object', properties: { a: true } }),
  },
  {
    id: 'json-edge-enum-numbers-grown',
    level: 'FULL',
    existing: [d4({ enum: [1, 2] })],
    proposed: d4({ enum: [1, 2, 3] }),
  },
  {
    id: 'json-edge-enum-objects-changed',
    level: 'BACKWARD',
    existing: [d4({ enum: [{ a: 1 }, [1, 2]] })],
    proposed: d4({ enum: [{ a: 1 }, [2, 1]] }),
  },
  {
    id: 'json-edge-integer-to-multiple-of-one',
    level: 'FULL',
    existing: [d4({ type: 'integer' })],
    proposed: d4({ type: 'number', multipleOf: 1 }),
  },
  {
    id: 'json-edge-typed-enum-to-string',
    level: 'BACKWARD',
    existing: [d4({ type: 'string', enum: ['a', 'b'] })],
    proposed: d4({ type: 'string' }),
  },
  {
    id: 'json-edge-string-to-typed-enum',
    level: 'BACKWARD',
    existing: [d4({ type: 'string' })],
    proposed: d4({ type: 'string', enum: ['a', 'b'] }),
  },
  {
    id: 'json-edge-additional-schema-to-false',
    level: 'BACKWARD',
    existing: [d4({ type: 'object', additionalProperties: { type: 'string' } })],
    proposed: d4({ type: 'object', additionalProperties: false }),
  },
  {
    id: 'json-edge-min-properties',
    level: 'FULL',
    existing: [d4({ type: 'object', minProperties: 1 })],
    proposed: d4({ type: 'object', minProperties: 2, maxProperties: 5 }),
  },
  {
    id: 'json-edge-ref-fragment-named',
    level: 'BACKWARD',
    existing: [d4({ type: 'object', properties: { a: { $ref: 'defs.json#/definitions/A' } } })],
    proposed: d4({
      type: 'object',
      properties: { a: { $ref: 'defs.json#/definitions/A' }, b: { type: 'string' } },
      additionalProperties: false,
    }),
    references: { 'defs.json#/definitions/A': DEFS },
  },
  {
    id: 'json-edge-ref-fragment-unnamed',
    level: 'BACKWARD',
    existing: [d4({ type: 'object', properties: { a: { $ref: 'defs.json#/definitions/A' } } })],
    proposed: d4({ type: 'object', properties: { a: { $ref: 'defs.json#/definitions/A' } } }),
    references: { 'defs.json': DEFS },
  },
  {
    id: 'json-edge-ref-to-other-definition',
    level: 'BACKWARD',
    existing: [d4({ type: 'object', properties: { a: { $ref: 'defs.json' } } })],
    proposed: d4({ type: 'object', properties: { a: { type: 'object', properties: { definitions: {} } } } }),
    references: { 'defs.json': DEFS },
  },
  {
    id: 'json-edge-id-base-draft7',
    level: 'BACKWARD',
    existing: [
      d7({ $id: 'http://example.com/root.json', type: 'object', properties: { a: { $ref: 'a.json' } } }),
    ],
    proposed: d7({
      $id: 'http://example.com/root.json',
      type: 'object',
      properties: { a: { $ref: 'a.json' } },
      required: ['a'],
    }),
    references: { 'a.json': JSON.stringify({ type: 'string' }) },
  },
  {
    id: 'json-edge-id-base-draft4',
    level: 'BACKWARD',
    existing: [
      d4({ $id: 'http://example.com/root.json', type: 'object', properties: { a: { $ref: 'a.json' } } }),
    ],
    proposed: d4({
      $id: 'http://example.com/root.json',
      type: 'object',
      properties: { a: { $ref: 'a.json' } },
      required: ['a'],
    }),
    references: { 'a.json': JSON.stringify({ type: 'string' }) },
  },
  {
    id: 'json-edge-ref-chain-transitive',
    level: 'BACKWARD_TRANSITIVE',
    existing: [
      d4({ type: 'object', properties: { a: { $ref: 'a.json' } } }),
      d4({ type: 'object', properties: { a: { type: 'string' } } }),
      d4({ type: 'object', properties: { a: { $ref: 'a.json' } } }),
    ],
    proposed: d4({ type: 'object', properties: { a: { $ref: 'a.json' } } }),
    references: { 'a.json': JSON.stringify({ type: 'string' }) },
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
  await run('JSON', [...jsonSchemaCases(), ...UNREADABLE_JSON, ...EDGE_JSON], 'json-registry-verdicts.json')
if (only === undefined || only === 'protobuf')
  await run(
    'PROTOBUF',
    [...protobufCases(), ...UNREADABLE_PROTOBUF, ...EDGE_PROTOBUF],
    'protobuf-registry-verdicts.json',
  )
