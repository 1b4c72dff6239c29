import { describe, expect, it } from 'vitest'
import { checkCompatibility } from './check-compatibility.js'
import { checkReferences } from './check-references.js'
import { validateSchema } from './validate-schema.js'

// Names every plain object inherits (`constructor`, `toString`, `hasOwnProperty`) are names like any other: only the
// references actually given map them.

describe('names that Object.prototype has', () => {
  it('are not taken as references given by checkReferences', () => {
    const avro = JSON.stringify({
      type: 'record',
      name: 'R',
      fields: [{ name: 'a', type: 'hasOwnProperty' }],
    })
    expect(checkReferences({ format: 'AVRO', schema: avro })).toEqual([
      { path: '', message: 'The schema refers to "hasOwnProperty", which no reference maps.' },
    ])
    const json = JSON.stringify({ properties: { a: { $ref: 'toString' } } })
    expect(checkReferences({ format: 'JSON', schema: json })).toEqual([
      { path: '', message: 'The schema refers to "toString", which no reference maps.' },
    ])
    const proto = 'syntax = "proto3";\nimport "constructor";\n'
    expect(checkReferences({ format: 'PROTOBUF', schema: proto })).toEqual([
      { path: '', message: 'The schema refers to "constructor", which no reference maps.' },
    ])
    expect(checkReferences({ format: 'PROTOBUF', schema: proto, references: { constructor: '' } })).toEqual(
      [],
    )
  })

  it('are imports validateSchema reports as missing, or reads from the references given', () => {
    const proto = 'syntax = "proto3";\nimport "constructor";\nmessage A { C c = 1; }\n'
    expect(validateSchema({ format: 'PROTOBUF', schema: proto })).toEqual([
      {
        path: '',
        message:
          'The schema is not valid Protobuf: it imports "constructor", which is neither a well-known file nor a reference.',
      },
      {
        path: '',
        message:
          'The schema is not valid Protobuf: the type C of field A.c is not a defined message or enum.',
      },
    ])
    const references = { constructor: 'syntax = "proto3";\nmessage C {}\n' }
    expect(validateSchema({ format: 'PROTOBUF', schema: proto, references })).toEqual([])
  })

  it('are a JSON Schema $ref that stands for any schema when no reference maps it', () => {
    const schema = JSON.stringify({ properties: { a: { $ref: 'toString' } } })
    expect(validateSchema({ format: 'JSON', schema })).toEqual([])
  })

  it('are type names a Protobuf field may use', () => {
    const proto = 'syntax = "proto3";\nmessage toString {}\nmessage A { toString t = 1; }\n'
    expect(validateSchema({ format: 'PROTOBUF', schema: proto })).toEqual([])
    expect(
      checkCompatibility({ format: 'PROTOBUF', level: 'BACKWARD', existing: [proto], proposed: proto }),
    ).toEqual({ compatible: true, issues: [] })
  })

  it('are field names an Avro record default leaves out', () => {
    const schema = JSON.stringify({
      type: 'record',
      name: 'Outer',
      fields: [
        {
          name: 'inner',
          type: { type: 'record', name: 'Inner', fields: [{ name: 'toString', type: ['null', 'int'] }] },
          default: {},
        },
      ],
    })
    expect(validateSchema({ format: 'AVRO', schema })).toEqual([])
  })
})
