import { describe, expect, it } from 'vitest'
import { schemaKindOf, schemaKindOfText } from './schema-kind.js'

describe('schemaKindOfText', () => {
  it('reads .proto text as PROTOBUF and a union, a type name or an Avro-only type as AVRO', () => {
    expect(schemaKindOfText('syntax = "proto3";\nmessage A { int64 id = 1; }\n')).toBe('PROTOBUF')
    expect(schemaKindOfText('// orders\npackage shop;\nmessage A {}\n')).toBe('PROTOBUF')
    expect(schemaKindOfText('["null","string"]')).toBe('AVRO')
    expect(schemaKindOfText('"long"')).toBe('AVRO')
    expect(schemaKindOfText('{"type":"record","name":"A","fields":[]}')).toBe('AVRO')
    expect(schemaKindOfText('{"type":"array","items":"string"}')).toBe('AVRO')
    expect(schemaKindOfText('{"type":"long","logicalType":"timestamp-millis"}')).toBe('AVRO')
  })

  it('reads a schema with a keyword only JSON Schema has as JSON', () => {
    expect(schemaKindOfText('{"type":"object","properties":{"a":{"type":"integer"}}}')).toBe('JSON')
    expect(schemaKindOfText('{"$schema":"https://json-schema.org/draft/2020-12/schema"}')).toBe('JSON')
    expect(schemaKindOfText('{"type":["string","null"]}')).toBe('JSON')
  })

  it('names no format where the text reads as either or as neither', () => {
    expect(schemaKindOfText('{"type":"string"}')).toBeUndefined()
    expect(schemaKindOfText('{"type":"record","properties":{}}')).toBeUndefined()
    expect(schemaKindOfText('42')).toBeUndefined()
    expect(schemaKindOfText('not a schema')).toBeUndefined()
  })
})

describe('schemaKindOf', () => {
  it('takes the three artifact types a format here reads, and no other', () => {
    expect(['AVRO', 'JSON', 'PROTOBUF', 'OPENAPI', undefined].map(schemaKindOf)).toEqual([
      'AVRO',
      'JSON',
      'PROTOBUF',
      undefined,
      undefined,
    ])
  })
})
