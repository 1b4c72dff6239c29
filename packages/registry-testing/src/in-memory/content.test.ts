import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { canonicalForm, contentHash } from './content.js'

describe('canonical form (Apicurio EnhancedAvroContentCanonicalizer)', () => {
  const same = (a: string, b: string) => canonicalForm('AVRO', a, []) === canonicalForm('AVRO', b, [])

  it.each([
    [
      'whitespace and member order',
      '{"type":"record","name":"A","fields":[]}',
      '{ "fields":[], "name":"A", "type":"record" }',
    ],
    [
      'docs and aliases',
      '{"type":"record","name":"A","fields":[{"name":"a","type":"int"}]}',
      '{"type":"record","name":"A","doc":"d","aliases":["Z"],"fields":[{"name":"a","type":"int","doc":"x"}]}',
    ],
    [
      'a namespace in the name',
      '{"type":"record","name":"n.A","fields":[]}',
      '{"type":"record","name":"A","namespace":"n","fields":[]}',
    ],
    ['a primitive as an object', '"string"', '{"type":"string"}'],
    [
      'an enum default',
      '{"type":"enum","name":"E","symbols":["A"]}',
      '{"type":"enum","name":"E","symbols":["A"],"default":"A"}',
    ],
    [
      'null default of a null-first union',
      '{"type":"record","name":"U","fields":[{"name":"u","type":["null","int"]}]}',
      '{"type":"record","name":"U","fields":[{"name":"u","type":["null","int"],"default":null}]}',
    ],
    [
      'custom properties moved among reserved ones',
      '{"type":"record","name":"F","x":1,"y":2,"fields":[]}',
      '{"type":"record","name":"F","fields":[],"x":1,"y":2}',
    ],
  ])('ignores %s', (_, a, b) => {
    expect(same(a, b)).toBe(true)
  })

  it.each([
    [
      'field order',
      '{"type":"record","name":"A","fields":[{"name":"a","type":"int"},{"name":"b","type":"int"}]}',
      '{"type":"record","name":"A","fields":[{"name":"b","type":"int"},{"name":"a","type":"int"}]}',
    ],
    [
      'the order of custom properties',
      '{"type":"record","name":"F","fields":[],"x":1,"y":2}',
      '{"type":"record","name":"F","fields":[],"y":2,"x":1}',
    ],
    [
      'a field default',
      '{"type":"record","name":"D","fields":[{"name":"a","type":"int","default":1}]}',
      '{"type":"record","name":"D","fields":[{"name":"a","type":"int"}]}',
    ],
    [
      'a field order attribute',
      '{"type":"record","name":"O","fields":[{"name":"a","type":"int"}]}',
      '{"type":"record","name":"O","fields":[{"name":"a","type":"int","order":"descending"}]}',
    ],
    [
      'a logical type',
      '{"type":"record","name":"L","fields":[{"name":"t","type":"long"}]}',
      '{"type":"record","name":"L","fields":[{"name":"t","type":{"type":"long","logicalType":"timestamp-millis"}}]}',
    ],
    ['whitespace in a text that is not a schema', 'hello', 'hello '],
  ])('counts %s', (_, a, b) => {
    expect(same(a, b)).toBe(false)
  })
})

describe('content hash', () => {
  it('is the SHA-256 of the text, followed by the references as Jackson writes them (null for default)', () => {
    expect(contentHash('"int"', [])).toBe(createHash('sha256').update('"int"').digest('hex'))
    const references = [{ groupId: null, artifactId: 'c', version: '1', name: 'n.C' }]
    expect(contentHash('"int"', references)).toBe(
      createHash('sha256')
        .update('"int"[{"groupId":null,"artifactId":"c","version":"1","name":"n.C"}]')
        .digest('hex'),
    )
  })
})
