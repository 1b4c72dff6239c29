import { DeserializationError } from '@x/errors'
import { describe, expect, it } from 'vitest'
import { applyIdHeaderRules, hasIdHeader } from './id-headers.js'

const id8 = (id: number) => {
  const bytes = Buffer.alloc(8)
  bytes.writeUInt32BE(id, 4)
  return bytes
}

describe('the id header rules', () => {
  it('return the message itself when no rule applies (no headers, other headers, one Apicurio id header)', () => {
    for (const headers of [undefined, {}, { trace: 'x' }, { 'apicurio.value.globalId': id8(3) }]) {
      const message = { payload: Buffer.from([1]), headers }
      expect(applyIdHeaderRules(message, 'value', 'globalId')).toBe(message)
    }
  })

  it('refuse an Apicurio id header repeated with different ids, and read one repeated with the same id as one', () => {
    const conflicting = { payload: Buffer.from([1]), headers: { 'apicurio.key.contentId': [id8(1), id8(2)] } }
    expect(() => applyIdHeaderRules(conflicting, 'key', 'globalId', 'orders')).toThrow(
      new DeserializationError(
        "A message of topic 'orders' carries the header apicurio.key.contentId 2 times with different ids (0x0000000000000001, 0x0000000000000002): which schema wrote its key cannot be told",
      ),
    )
    const same = { payload: Buffer.from([1]), headers: { 'apicurio.key.contentId': [id8(1), id8(1)] } }
    expect(applyIdHeaderRules(same, 'key', 'globalId')).toBe(same)
  })

  it("read Confluent 8's __value_schema_id (0x00 + a 4-byte id) as the Apicurio id header of useId", () => {
    const message = {
      payload: Buffer.from([2]),
      headers: { __value_schema_id: Buffer.from([0, 0, 0, 0, 17]) },
    }
    const ruled = applyIdHeaderRules(message, 'value', 'contentId')
    expect(ruled.payload).toBe(message.payload)
    expect(ruled.headers).toEqual({ ...message.headers, 'apicurio.value.contentId': id8(17) })
    expect(hasIdHeader(message.headers, 'value')).toBe(true)
    expect(hasIdHeader(message.headers, 'key')).toBe(false)
  })

  it('refuse a Confluent GUID header (0x01 + 16 bytes) naming the GUID, and any other form of that header', () => {
    const guid = Buffer.from('01123e4567e89b12d3a456426614174000', 'hex')
    expect(() =>
      applyIdHeaderRules(
        { payload: Buffer.from([2]), headers: { __key_schema_id: guid } },
        'key',
        'globalId',
      ),
    ).toThrow(
      "Cannot read header '__key_schema_id': it holds the schema GUID 123e4567-e89b-12d3-a456-426614174000 (0x01 + 16 bytes, Confluent's GUID form); Apicurio Registry assigns no GUIDs",
    )
    expect(() =>
      applyIdHeaderRules(
        { payload: Buffer.from([2]), headers: { __value_schema_id: Buffer.from([0, 0, 1]) } },
        'value',
        'globalId',
      ),
    ).toThrow(DeserializationError)
  })

  it('read a header given as an empty list of values as absent, as the deserializers do, never as a foreign error', () => {
    for (const name of ['__key_schema_id', 'apicurio.key.globalId', 'apicurio.key.contentId']) {
      const message = { payload: Buffer.from([1]), headers: { [name]: [] } }
      expect(applyIdHeaderRules(message, 'key', 'globalId')).toBe(message)
      expect(hasIdHeader(message.headers, 'key')).toBe(false)
    }
    const confluent = {
      payload: Buffer.from([2]),
      headers: { 'apicurio.value.globalId': [], __value_schema_id: Buffer.from([0, 0, 0, 0, 9]) },
    }
    expect(applyIdHeaderRules(confluent, 'value', 'globalId').headers).toEqual({
      ...confluent.headers,
      'apicurio.value.globalId': id8(9),
    })
  })

  it('let an Apicurio id header win over a Confluent one', () => {
    const message = {
      payload: Buffer.from([2]),
      headers: { 'apicurio.value.globalId': id8(5), __value_schema_id: Buffer.from([1]) },
    }
    expect(applyIdHeaderRules(message, 'value', 'globalId')).toBe(message)
  })
})
