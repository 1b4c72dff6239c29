import { describe, expect, it } from 'vitest'
import { avroNames, jsonRefs, orderByDependencies, protoImports } from './file-references.js'
import type { SchemaFile } from './register.js'

const file = (path: string, artifactType: SchemaFile['artifactType'], text: string): SchemaFile => ({
  path,
  text,
  groupId: 'default',
  artifactId: path,
  artifactType,
  references: [],
})

describe('the references a schema file implies', () => {
  it('reads .proto imports (public and weak too), not those in comments', () => {
    const text =
      'syntax = "proto3";\n// import "old.proto";\n/* import "gone.proto"; */\nimport public "a/b.proto";\nimport weak "c.proto";\nimport "google/protobuf/timestamp.proto";\n'
    expect([...protoImports(text)].sort()).toEqual([
      'a/b.proto',
      'c.proto',
      'google/protobuf/timestamp.proto',
    ])
  })

  it('reads the imports the parser reads: not a comment opened inside a string, none from a file that does not parse', () => {
    const text =
      'syntax = "proto3"; option java_package = "a/*"; import "x.proto";\nmessage M { string s = 1; } // */\n'
    expect(protoImports(text)).toEqual(['x.proto'])
    expect(protoImports('syntax = "proto3"; import "x.proto"; message {')).toEqual([])
  })

  it('reads the documents a JSON Schema $refs, not its local definitions', () => {
    const text = JSON.stringify({
      properties: { a: { $ref: 'a.json#/x' }, b: { $ref: '#/$defs/b' }, c: { items: [{ $ref: 'c.json' }] } },
    })
    expect(jsonRefs(text)).toEqual(['a.json', 'c.json'])
  })

  it('resolves Avro names against the enclosing namespace, and tells defined from used', () => {
    const schema = file(
      'l.avsc',
      'AVRO',
      JSON.stringify({
        type: 'record',
        name: 'Line',
        namespace: 'shop',
        fields: [
          { name: 'price', type: 'Price' },
          { name: 'tags', type: { type: 'array', items: 'common.Tag' } },
          { name: 'kind', type: ['null', { type: 'enum', name: 'Kind', symbols: ['A'] }] },
          { name: 'again', type: 'Kind' },
          { name: 'n', type: 'long' },
        ],
      }),
    )
    const names = avroNames(schema)
    expect([...names.defined]).toEqual(['shop.Line', 'shop.Kind'])
    expect([...names.used]).toEqual(['shop.Price', 'common.Tag'])
  })

  it('orders files after the ones they use and leaves out what no given file provides', () => {
    const order = file(
      'order.proto',
      'PROTOBUF',
      'import "money.proto";\nimport "google/protobuf/timestamp.proto";\n',
    )
    const money = file('lib/money.proto', 'PROTOBUF', 'message Money {}\n')
    const { order: sequence, uses } = orderByDependencies([order, money])
    expect(sequence.map((f) => f.path)).toEqual(['lib/money.proto', 'order.proto'])
    expect(uses.get(order)).toEqual([{ name: 'money.proto', file: money }])
  })
})
