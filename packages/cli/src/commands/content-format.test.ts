import { describe, expect, it } from 'vitest'
import { formatOfContent } from './content-format.js'

describe('formatOfContent', () => {
  it('reads .proto text as PROTOBUF and a union, a type name or an Avro-only type as AVRO', () => {
    expect(formatOfContent('syntax = "proto3";\nmessage A { int64 id = 1; }\n')).toBe('PROTOBUF')
    expect(formatOfContent('// orders\npackage shop;\nmessage A {}\n')).toBe('PROTOBUF')
    expect(formatOfContent('["null","string"]')).toBe('AVRO')
    expect(formatOfContent('"long"')).toBe('AVRO')
    expect(formatOfContent('{"type":"record","name":"A","fields":[]}')).toBe('AVRO')
    expect(formatOfContent('{"type":"array","items":"string"}')).toBe('AVRO')
    expect(formatOfContent('{"type":"long","logicalType":"timestamp-millis"}')).toBe('AVRO')
  })

  it('reads a schema with a keyword only JSON Schema has as JSON', () => {
    expect(formatOfContent('{"type":"object","properties":{"a":{"type":"integer"}}}')).toBe('JSON')
    expect(formatOfContent('{"$schema":"https://json-schema.org/draft/2020-12/schema"}')).toBe('JSON')
    expect(formatOfContent('{"type":["string","null"]}')).toBe('JSON')
  })

  it('names no format where the text reads as either or as neither', () => {
    expect(formatOfContent('{"type":"string"}')).toBeUndefined()
    expect(formatOfContent('{"type":"record","properties":{}}')).toBeUndefined()
    expect(formatOfContent('42')).toBeUndefined()
    expect(formatOfContent('not a schema')).toBeUndefined()
  })
})
