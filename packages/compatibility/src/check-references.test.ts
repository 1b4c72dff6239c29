import { describe, expect, it } from 'vitest'
import { checkReferences } from './check-references.js'
import { validateSchema } from './validate-schema.js'

const address = JSON.stringify({ type: 'record', name: 'Address', namespace: 'c', fields: [] })
const order = JSON.stringify({
  type: 'record',
  name: 'Order',
  fields: [
    { name: 'a', type: 'c.Address' },
    { name: 'b', type: 'c.Money' },
  ],
})

describe('checkReferences', () => {
  it('names every Avro type the schema uses and nothing defines', () => {
    expect(checkReferences({ format: 'AVRO', schema: order, references: { 'c.Address': address } })).toEqual([
      { path: '', message: 'The schema refers to "c.Money", which no reference maps.' },
    ])
    expect(checkReferences({ format: 'AVRO', schema: order }).map((issue) => issue.message)).toEqual([
      'The schema refers to "c.Address", which no reference maps.',
      'The schema refers to "c.Money", which no reference maps.',
    ])
  })

  it('names JSON Schema $refs to other documents, not the ones inside the schema', () => {
    const schema = JSON.stringify({
      properties: {
        a: { $ref: 'address.json' },
        b: { $ref: 'money.json#/definitions/m' },
        c: { $ref: '#/x' },
      },
    })
    expect(checkReferences({ format: 'JSON', schema, references: { 'address.json': '{}' } })).toEqual([
      { path: '', message: 'The schema refers to "money.json", which no reference maps.' },
    ])
  })

  it('names Protobuf imports, the well-known types aside', () => {
    const schema =
      'syntax = "proto3";\nimport "common.proto";\nimport public "google/protobuf/timestamp.proto";\n'
    expect(checkReferences({ format: 'PROTOBUF', schema })).toEqual([
      { path: '', message: 'The schema refers to "common.proto", which no reference maps.' },
    ])
    expect(checkReferences({ format: 'PROTOBUF', schema, references: { 'common.proto': '' } })).toEqual([])
  })
})

describe('validateSchema', () => {
  it('refuses an Avro default that does not fit its type, as Avro 1.12 does', () => {
    const schema = JSON.stringify({
      type: 'record',
      name: 'R',
      fields: [{ name: 'b', type: 'int', default: 'x' }],
    })
    expect(validateSchema({ format: 'AVRO', schema })).toEqual([
      { path: '', message: 'The schema is not valid Avro: Invalid default for field b: "x" not a "int".' },
    ])
    expect(
      validateSchema({
        format: 'AVRO',
        schema: order,
        references: { 'c.Address': address, 'c.Money': address.replace('Address', 'Money') },
      }),
    ).toEqual([])
  })
})

describe('checkReferences of Protobuf imports', () => {
  it('reads imports from the tokens: one after another statement on its line, none inside a comment or string', () => {
    const schema = [
      'syntax = "proto3"; import "x.proto"; import weak "w.proto";',
      '/* import "commented.proto"; */',
      '// import "line-comment.proto";',
      'option java_package = "import \\"quoted.proto\\";";',
      'message A { int32 import = 1; }',
    ].join('\n')
    expect(checkReferences({ format: 'PROTOBUF', schema }).map((issue) => issue.message)).toEqual([
      'The schema refers to "x.proto", which no reference maps.',
      'The schema refers to "w.proto", which no reference maps.',
    ])
  })

  it('finds no import in a text that cannot be read into tokens', () => {
    expect(checkReferences({ format: 'PROTOBUF', schema: 'import "a.proto";\n/* never closed' })).toEqual([])
  })
})
