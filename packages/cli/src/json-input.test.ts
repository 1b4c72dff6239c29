import { parseExactJson } from '@x/registry-client/json'
import { describe, expect, it } from 'vitest'
import { avroInput, protobufInput } from './json-input.js'

const json = (text: string) => parseExactJson(text).value

describe('JSON input', () => {
  it('turns Avro bytes and fixed from base64, millisecond timestamps and dates from ISO text, inside records, unions, arrays and maps', () => {
    const schema = {
      type: 'record',
      name: 'Order',
      namespace: 'shop',
      fields: [
        { name: 'id', type: 'long' },
        { name: 'tag', type: 'bytes' },
        { name: 'hash', type: { type: 'fixed', name: 'Hash', size: 2 } },
        { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } },
        { name: 'day', type: { type: 'int', logicalType: 'date' } },
        { name: 'maybe', type: ['null', 'bytes'] },
        { name: 'again', type: ['null', 'Hash'] },
        { name: 'either', type: ['string', 'bytes'] },
        { name: 'list', type: { type: 'array', items: 'bytes' } },
        { name: 'byName', type: { type: 'map', values: 'shop.Hash' } },
        { name: 'price', type: { type: 'bytes', logicalType: 'decimal', precision: 6, scale: 2 } },
      ],
    }
    const value = avroInput(JSON.stringify(schema))(
      json(
        '{"id":9007199254740993,"tag":"AAE=","hash":"//8=","at":"2026-11-25T18:00:00.000Z","day":"2026-11-25",' +
          '"maybe":"AQ==","again":null,"either":{"bytes":"Ag=="},"list":["Aw=="],"byName":{"k":"BAU="},"price":"12.34"}',
      ),
    )
    expect(value).toEqual({
      id: 9007199254740993n,
      tag: Buffer.from([0, 1]),
      hash: Buffer.from([255, 255]),
      at: new Date('2026-11-25T18:00:00.000Z'),
      day: new Date('2026-11-25T00:00:00.000Z'),
      maybe: Buffer.from([1]),
      again: null,
      // Unwrapped by the serializer (a string and bytes are told apart): handed over bare.
      either: Buffer.from([2]),
      list: [Buffer.from([3])],
      byName: { k: Buffer.from([4, 5]) },
      price: '12.34',
    })
  })

  it('converts inside named types defined in the referenced artifacts given, as inside types written inline', () => {
    const address = {
      type: 'record',
      name: 'Address',
      namespace: 'geo',
      fields: [{ name: 'pin', type: 'bytes' }],
    }
    const convert = avroInput(
      '{"type":"record","name":"User","namespace":"shop","fields":[{"name":"home","type":"geo.Address"}]}',
      [JSON.stringify(address)],
    )
    expect(convert(json('{"home":{"pin":"AQI="}}'))).toEqual({ home: { pin: Buffer.from([1, 2]) } })
  })

  it('converts a bare value in a union of several branches by the one branch whose JSON form it has, referenced types included', () => {
    const owner = {
      type: 'record',
      name: 'Owner',
      namespace: 'refs',
      fields: [{ name: 'since', type: { type: 'long', logicalType: 'timestamp-millis' } }],
    }
    const schema = {
      type: 'record',
      name: 'Account',
      namespace: 'refs',
      fields: [
        { name: 'badge', type: ['null', 'int', 'bytes'] },
        { name: 'when', type: ['null', 'Owner', { type: 'long', logicalType: 'timestamp-millis' }] },
        { name: 'day', type: ['null', 'boolean', { type: 'int', logicalType: 'date' }] },
        { name: 'hash', type: ['null', 'Owner', { type: 'fixed', name: 'Hash', size: 2 }] },
        { name: 'price', type: ['null', 'boolean', { type: 'bytes', logicalType: 'decimal', precision: 4 }] },
        { name: 'either', type: ['null', 'string', 'bytes'] },
      ],
    }
    const convert = avroInput(JSON.stringify(schema), [JSON.stringify(owner)])
    expect(
      convert(
        json(
          '{"badge":"AQID","when":"2024-01-01T00:00:00.000Z","day":"2024-01-02T00:00:00.000Z","hash":"//8=",' +
            '"price":"12","either":"AQID"}',
        ),
      ),
    ).toEqual({
      badge: Buffer.from([1, 2, 3]),
      when: new Date('2024-01-01T00:00:00.000Z'),
      day: new Date('2024-01-02T00:00:00.000Z'),
      hash: Buffer.from([0xff, 0xff]),
      price: '12',
      // A string could be the string or the bytes' base64: handed over as it is, the string branch takes it.
      either: 'AQID',
    })
    expect(
      convert(
        json(
          '{"badge":7,"when":{"since":"2024-01-01T00:00:00.000Z"},"day":true,"hash":null,"price":null,"either":null}',
        ),
      ),
    ).toEqual({
      badge: 7,
      when: { since: new Date('2024-01-01T00:00:00.000Z') },
      day: true,
      hash: null,
      price: null,
      either: null,
    })
  })

  it('leaves what is not base64 as it is, for the serializer to refuse with its path', () => {
    const convert = avroInput('{"type":"record","name":"R","fields":[{"name":"b","type":"bytes"}]}')
    expect(convert(json('{"b":"not base64!"}'))).toEqual({ b: 'not base64!' })
    expect(convert(json('{"b":12}'))).toEqual({ b: 12 })
  })

  it('turns Protobuf bytes from base64 in the first message (or the one named), nested, repeated and in maps', () => {
    const proto = `syntax = "proto3";
package shop;
import "google/protobuf/timestamp.proto";
import "money.proto";
message Line { string sku = 1; int64 qty = 2; bytes tag = 3; repeated bytes parts = 4; Inner inner = 5;
  map<string, bytes> extra = 6; google.protobuf.Timestamp at = 7; shop.Money price = 8; }
message Inner { bytes raw = 1; }
`
    const money = 'syntax = "proto3";\npackage shop;\nmessage Money { bytes units = 1; }\n'
    const convert = protobufInput(proto, new Map([['money.proto', money]]), undefined)
    expect(
      convert(
        json(
          '{"sku":"X","qty":9223372036854775807,"tag":"/wA=","parts":["AQ=="],"inner":{"raw":"Ag=="},' +
            '"extra":{"k":"Aw=="},"at":{"seconds":1,"nanos":2},"price":{"units":"BA=="}}',
        ),
      ),
    ).toEqual({
      sku: 'X',
      qty: 9223372036854775807n,
      tag: Buffer.from([255, 0]),
      parts: [Buffer.from([1])],
      inner: { raw: Buffer.from([2]) },
      extra: { k: Buffer.from([3]) },
      at: { seconds: 1, nanos: 2 },
      price: { units: Buffer.from([4]) },
    })
    expect(
      protobufInput(proto, new Map([['money.proto', money]]), 'shop.Inner')(json('{"raw":"BQ=="}')),
    ).toEqual({
      raw: Buffer.from([5]),
    })
  })
})
