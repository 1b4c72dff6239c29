import { describe, expect, it } from 'vitest'
import { checkCompatibility } from './check-compatibility.js'

const address = (...fields: object[]) =>
  JSON.stringify({ type: 'record', name: 'Address', namespace: 'com.example', fields })
const AVRO_ORDER = JSON.stringify({
  type: 'record',
  name: 'Order',
  fields: [{ name: 'a', type: 'com.example.Address' }],
})
const STREET = { name: 'street', type: 'string' }
const COUNTRY = { name: 'country', type: 'string' }

const JSON_ORDER = JSON.stringify({ type: 'object', properties: { a: { $ref: 'address.json' } } })
const jsonAddress = (street: string) =>
  JSON.stringify({ type: 'object', properties: { street: { type: street } } })

const PROTO_ORDER =
  'syntax = "proto3";\nimport "common/address.proto";\nmessage Order { common.Address a = 1; }\n'
const protoAddress = (field: string) => `syntax = "proto3";\npackage common;\nmessage Address { ${field} }\n`

describe('checkCompatibility with strict: true', () => {
  it('compares an Avro type another artifact defines, which the registry reads as the proposed version has it', () => {
    const check = {
      format: 'AVRO' as const,
      level: 'BACKWARD' as const,
      existing: [AVRO_ORDER],
      proposed: AVRO_ORDER,
      references: { 'com.example.Address': address(STREET, COUNTRY) },
      existingReferences: [{ 'com.example.Address': address(STREET) }],
    }
    expect(checkCompatibility(check)).toEqual({ compatible: true, issues: [] })
    expect(checkCompatibility({ ...check, strict: true })).toEqual({
      compatible: false,
      issues: [
        {
          path: 'fields[1]',
          message:
            'In the referenced schema "com.example.Address": The reader\'s field "country" has no default, and the writer has no field of that name or of one of its aliases.',
          reference: 'com.example.Address',
        },
      ],
    })
  })

  it("compares a JSON Schema document a $ref names, in the level's directions", () => {
    const check = {
      format: 'JSON' as const,
      existing: [JSON_ORDER],
      proposed: JSON_ORDER,
      references: { 'address.json': jsonAddress('string') },
      existingReferences: [{ 'address.json': jsonAddress('integer') }],
      strict: true,
    }
    for (const level of ['BACKWARD', 'FORWARD', 'FULL'] as const) {
      const result = checkCompatibility({ ...check, level })
      expect([level, result.compatible, result.issues.map((issue) => [issue.reference, issue.path])]).toEqual(
        [level, false, [['address.json', 'properties.street']]],
      )
    }
    expect(checkCompatibility({ ...check, level: 'BACKWARD', strict: false }).compatible).toBe(true)
  })

  it('compares a Protobuf import, and nothing when the versions share the text or have no references of their own', () => {
    const check = {
      format: 'PROTOBUF' as const,
      level: 'FULL_TRANSITIVE' as const,
      existing: [PROTO_ORDER, PROTO_ORDER],
      proposed: PROTO_ORDER,
      references: { 'common/address.proto': protoAddress('string street = 1;') },
      strict: true,
    }
    expect(checkCompatibility(check)).toEqual({ compatible: true, issues: [] })
    const changed = checkCompatibility({
      ...check,
      existingReferences: [undefined, { 'common/address.proto': protoAddress('int32 street = 1;') }],
    })
    const issue = (from: string, to: string) => ({
      path: 'Address.street',
      message: `In the referenced schema "common/address.proto": The field street of Address changed its type from ${from} to ${to}.`,
      reference: 'common/address.proto',
    })
    expect(changed).toEqual({
      compatible: false,
      issues: [issue('int32', 'string'), issue('string', 'int32')],
    })
  })
})
