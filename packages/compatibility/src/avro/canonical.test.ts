import { describe, expect, it } from 'vitest'
import { normalizeAvro, writeAvro } from './canonical.js'
import { AvroSchemaError, parseAvro } from './schema.js'

// Expected texts were produced by a real Apicurio Registry 3.3.3 (`references=DEREFERENCE`, which runs Avro's own
// `Schema.toString()`), given the same schemas.

const CHILD = JSON.stringify({
  namespace: 'a.b',
  type: 'record',
  name: 'Child',
  doc: 'cd',
  aliases: ['Kid'],
  cp: 'x',
  fields: [
    { doc: 'fd', name: 'f1', type: 'int', default: 1, order: 'descending', aliases: ['g'], fp: true },
    { name: 'f2', type: { type: 'enum', name: 'E', symbols: ['A', 'B'], default: 'A', doc: 'ed', ep: 1 } },
    { name: 'f3', type: { type: 'fixed', name: 'F', namespace: 'other', size: 2, xp: 'y' } },
    { name: 'f4', type: { type: 'array', items: 'a.b.E', ap: 1 } },
    { name: 'f5', type: { type: 'map', values: 'other.F' } },
    { name: 'f6', type: ['null', { type: 'long', logicalType: 'timestamp-millis' }], default: null },
    { name: 'f7', type: { type: 'bytes', logicalType: 'decimal', precision: 5, scale: 2 } },
    { name: 'f8', type: { type: 'string' } },
    {
      name: 'f9',
      type: { type: 'record', name: 'Inner', namespace: '', fields: [{ name: 'e', type: 'a.b.E' }] },
    },
    { name: 'f10', type: 'double', default: 1 },
  ],
})

const PARENT = JSON.stringify({
  type: 'record',
  name: 'P',
  namespace: 'a.b',
  fields: [
    { name: 'c', type: 'Child' },
    { name: 'c2', type: 'a.b.Child' },
    {
      name: 'x',
      type: {
        type: 'record',
        name: 'X',
        namespace: 'z',
        fields: [
          { name: 'c', type: 'a.b.Child' },
          { name: 'e', type: 'a.b.E' },
        ],
      },
    },
  ],
})

describe('writing a parsed schema as Avro does', () => {
  it('inlines referenced types at first use, qualifies names against the enclosing namespace, keeps member order', () => {
    expect(writeAvro(parseAvro(PARENT, [CHILD]))).toBe(
      '{"type":"record","name":"P","namespace":"a.b","fields":[{"name":"c","type":{"type":"record","name":"Child",' +
        '"doc":"cd","fields":[{"name":"f1","type":"int","doc":"fd","default":1,"order":"descending","aliases":["g"],' +
        '"fp":true},{"name":"f2","type":{"type":"enum","name":"E","doc":"ed","symbols":["A","B"],"default":"A",' +
        '"ep":1}},{"name":"f3","type":{"type":"fixed","name":"F","namespace":"other","size":2,"xp":"y"}},' +
        '{"name":"f4","type":{"type":"array","items":"E","ap":1}},{"name":"f5","type":{"type":"map",' +
        '"values":"other.F"}},{"name":"f6","type":["null",{"type":"long","logicalType":"timestamp-millis"}],' +
        '"default":null},{"name":"f7","type":{"type":"bytes","logicalType":"decimal","precision":5,"scale":2}},' +
        '{"name":"f8","type":"string"},{"name":"f9","type":{"type":"record","name":"Inner","namespace":"",' +
        '"fields":[{"name":"e","type":"a.b.E"}]}},{"name":"f10","type":"double","default":1}],"cp":"x",' +
        '"aliases":["Kid"]}},{"name":"c2","type":"Child"},{"name":"x","type":{"type":"record","name":"X",' +
        '"namespace":"z","fields":[{"name":"c","type":"a.b.Child"},{"name":"e","type":"a.b.E"}]}}]}',
    )
  })

  it('reports an undefined name as AvroTypeException and a second definition as SchemaParseException', () => {
    expect(() => parseAvro(PARENT)).toThrow(
      expect.objectContaining({ exception: 'AvroTypeException', message: 'Undefined schema: a.b.Child' }),
    )
    const twice =
      '{"type":"record","name":"T","fields":[{"name":"a","type":{"type":"fixed","name":"T","size":1}}]}'
    expect(() => parseAvro(twice)).toThrow(
      expect.objectContaining({ exception: 'SchemaParseException', message: "Can't redefine: T" }),
    )
    expect(() => parseAvro('{"foo":1}')).toThrow(AvroSchemaError)
  })
})

describe('canonical form (Apicurio EnhancedAvroContentCanonicalizer)', () => {
  it('is the schema written back with empty docs', () => {
    const input =
      '{"type":"record","name":"A","doc":"x","aliases":["B"],"fields":[{"name":"a","type":"int","doc":"y"}]}'
    expect(writeAvro(normalizeAvro(parseAvro(input)))).toBe(
      '{"type":"record","name":"A","doc":"","fields":[{"name":"a","type":"int","doc":""}]}',
    )
  })
})
