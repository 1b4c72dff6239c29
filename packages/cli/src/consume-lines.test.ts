import { describe, expect, it } from 'vitest'
import { type ConsumedLine, ConsumeSummary, headerValue, jsonLine, readableLine } from './consume-lines.js'

const decoded: ConsumedLine = {
  topic: 'orders',
  partition: 1,
  offset: '12',
  timestamp: '1764093600000',
  key: 'A-1',
  headers: { 'apicurio.value.globalId': { base64: 'AAAAAAAAAAU=' }, trace: 'abc' },
  schema: {
    format: 'AVRO',
    idType: 'globalId',
    id: 5,
    mode: 'headers',
    groupId: 'default',
    artifactId: 'orders-value',
    version: '2',
  },
  value: { id: 2n ** 60n + 1n, tag: Buffer.from([0, 1, 2]), at: new Date(0), note: null },
}

const failed: ConsumedLine = {
  topic: 'orders',
  partition: 0,
  offset: '3',
  timestamp: '1764093600000',
  key: null,
  headers: {},
  error: {
    name: 'DeserializationError',
    code: 'DESERIALIZATION',
    field: 'value',
    message: 'Cannot decode a frame',
  },
  raw: Buffer.from('hello'),
}

describe('consume lines', () => {
  it('prints a decoded message as one JSON line with exact longs, base64 bytes and ISO dates', () => {
    expect(jsonLine(decoded)).toBe(
      '{"topic":"orders","partition":1,"offset":12,"timestamp":"2025-11-25T18:00:00.000Z","key":"A-1",' +
        '"headers":{"apicurio.value.globalId":{"base64":"AAAAAAAAAAU="},"trace":"abc"},' +
        '"schema":{"format":"AVRO","idType":"globalId","id":5,"mode":"headers","groupId":"default","artifactId":"orders-value","version":"2"},' +
        '"value":{"id":1152921504606846977,"tag":"AAEC","at":"1970-01-01T00:00:00.000Z","note":null}}\n',
    )
  })

  it('prints a message that did not decode as an error line with its raw bytes, and a tombstone with a null schema', () => {
    expect(jsonLine(failed)).toBe(
      '{"topic":"orders","partition":0,"offset":3,"timestamp":"2025-11-25T18:00:00.000Z","key":null,"headers":{},' +
        '"error":{"name":"DeserializationError","code":"DESERIALIZATION","field":"value","message":"Cannot decode a frame"},"raw":"aGVsbG8="}\n',
    )
    expect(jsonLine({ ...decoded, schema: null, value: null, headers: {} })).toBe(
      '{"topic":"orders","partition":1,"offset":12,"timestamp":"2025-11-25T18:00:00.000Z","key":"A-1","headers":{},"schema":null,"value":null}\n',
    )
  })

  it('reads well without --json: where, when, key, other headers, the artifact, then the value indented', () => {
    expect(readableLine(decoded)).toBe(
      [
        'orders/1@12  2025-11-25T18:00:00.000Z  key "A-1"  headers {"trace":"abc"}  AVRO default/orders-value v2 (globalId 5, headers)',
        '  {',
        '    "id": 1152921504606846977,',
        '    "tag": "AAEC",',
        '    "at": "1970-01-01T00:00:00.000Z",',
        '    "note": null',
        '  }',
        '',
      ].join('\n'),
    )
    expect(readableLine(failed)).toBe(
      'orders/0@3  2025-11-25T18:00:00.000Z\n  ERROR Cannot decode a frame\n  raw value (base64): aGVsbG8=\n',
    )
  })

  it('counts messages per format, tombstones and errors for the summary', () => {
    const summary = new ConsumeSummary()
    expect(String(summary)).toBe('0 messages')
    summary.add(decoded)
    expect(String(summary)).toBe('1 message: 1 AVRO')
    summary.add(decoded)
    summary.add({ ...decoded, schema: { ...decoded.schema!, format: 'PROTOBUF' } })
    summary.add({ ...decoded, schema: null })
    summary.add(failed)
    expect(String(summary)).toBe('5 messages: 2 AVRO, 1 PROTOBUF, 1 tombstone; 1 did not decode')
    expect(summary.errors).toBe(1)
  })

  it('prints header values as text when they are UTF-8 text, else as base64', () => {
    expect(headerValue(Buffer.from('héllo'))).toBe('héllo')
    expect(headerValue(Buffer.from([0, 0, 0, 0, 0, 0, 0, 7]))).toEqual({ base64: 'AAAAAAAAAAc=' })
    expect(headerValue(Buffer.from([0xc3]))).toEqual({ base64: 'ww==' })
    expect(headerValue('as string')).toBe('as string')
  })
})
