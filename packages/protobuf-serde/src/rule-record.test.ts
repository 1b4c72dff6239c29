import protobuf from 'protobufjs'
import { describe, expect, it } from 'vitest'
import { loadProto } from './proto-loader.js'
import { toRuleMessage } from './rule-record.js'
import { fromRuleMessage } from './rule-values.js'
import { planOf } from './values.js'

// The record rules see for a message is proto3's JSON mapping of it, as the registry is sent it; fromRuleMessage
// maps a transform's record written in that form back to the message.

describe('toRuleMessage', () => {
  const types = protobuf.parse(
    [
      'syntax = "proto3";',
      'message M {',
      '  double d = 1;',
      '  float f = 2;',
      '  repeated double list = 3;',
      '  map<string, double> byName = 4;',
      '  N inner = 5;',
      '  int64 count = 6;',
      '  string s = 7;',
      '}',
      'message N { double v = 1; }',
    ].join('\n'),
    { keepCase: true },
  ).root
  const mPlan = planOf(types.lookupType('M'))
  const double = (value: number) => ({ double: value })

  it('marks each integral double of the message, its lists, maps and own messages, and writes NaN and infinities as text', () => {
    const value = {
      d: 5,
      f: 1.5,
      list: [1, Number.NaN],
      byName: { a: 2, b: -Infinity },
      inner: { v: 3 },
      count: 7,
      s: 'x',
    }
    expect(toRuleMessage(mPlan, value, double)).toEqual({
      d: { double: 5 },
      f: 1.5,
      list: [{ double: 1 }, 'NaN'],
      byName: { a: { double: 2 }, b: '-Infinity' },
      inner: { v: { double: 3 } },
      count: 7,
      s: 'x',
    })
  })

  it('is inverted by fromRuleMessage for the doubles', () => {
    const brand = { value: 4, [Symbol.for('@x/rules.RuleDouble')]: true }
    expect(fromRuleMessage(mPlan, { d: brand, list: ['Infinity', 2.5] })).toEqual({
      d: 4,
      list: [Infinity, 2.5],
    })
  })
})

describe('toRuleMessage, as proto3 JSON maps a message', () => {
  const user = loadProto(
    [
      'syntax = "proto3";',
      'import "google/protobuf/timestamp.proto";',
      'import "google/protobuf/duration.proto";',
      'import "google/protobuf/wrappers.proto";',
      'import "google/protobuf/struct.proto";',
      'enum Color { COLOR_UNSPECIFIED = 0; RED = 1; }',
      'message User {',
      '  int64 user_id = 1;',
      '  google.protobuf.Timestamp updated_at = 2;',
      '  google.protobuf.Duration ttl = 3;',
      '  google.protobuf.Int64Value wrapped = 4;',
      '  google.protobuf.DoubleValue ratio = 5;',
      '  google.protobuf.Struct extra = 6;',
      '  Color color = 7;',
      '  string nickname = 8;',
      '  repeated string roles = 9;',
      '  int32 odd_name = 10 [json_name = "custom"];',
      '  optional int32 level = 11;',
      '}',
    ].join('\n'),
  ).root
  user.resolveAll()
  const userPlan = planOf(user.lookupType('User'))
  const double = (value: number) => ({ double: value })
  const message = {
    user_id: 9_223_372_036_854_775_807n,
    updated_at: { seconds: 1_735_689_600, nanos: 500_000_000 },
    ttl: { seconds: -90, nanos: -250_000_000 },
    wrapped: { value: 12 },
    ratio: { value: 5 },
    extra: {
      fields: {
        source: { string_value: 'web' },
        list: { list_value: { values: [{ bool_value: true }, { null_value: 0 }] } },
      },
    },
    color: 1,
    nickname: '',
    roles: [],
    odd_name: 3,
    level: 0,
  }
  const json = {
    userId: 9_223_372_036_854_775_807n,
    updatedAt: '2025-01-01T00:00:00.500Z',
    ttl: '-90.250s',
    wrapped: 12,
    ratio: { double: 5 },
    extra: { source: 'web', list: [true, null] },
    color: 'RED',
    custom: 3,
    level: 0,
  }

  it('names fields by their JSON names, writes well-known types in their JSON forms and leaves out defaults without presence', () => {
    expect(toRuleMessage(userPlan, message, double)).toEqual(json)
  })

  it('converts only the top-level fields asked for, by their JSON names', () => {
    expect(toRuleMessage(userPlan, message, double, ['userId', 'ttl'])).toEqual({
      userId: 9_223_372_036_854_775_807n,
      ttl: '-90.250s',
    })
  })

  it('is inverted by fromRuleMessage, back to .proto names and messages', () => {
    const brand = { value: 5, [Symbol.for('@x/rules.RuleDouble')]: true }
    expect(fromRuleMessage(userPlan, { ...json, ratio: brand, added: 'x' })).toEqual({
      user_id: 9_223_372_036_854_775_807n,
      updated_at: { seconds: 1_735_689_600, nanos: 500_000_000 },
      ttl: { seconds: -90, nanos: -250_000_000 },
      wrapped: { value: 12 },
      ratio: { value: 5 },
      extra: {
        fields: {
          source: { string_value: 'web' },
          list: { list_value: { values: [{ bool_value: true }, { null_value: 0 }] } },
        },
      },
      color: 'RED',
      odd_name: 3,
      level: 0,
      added: 'x',
    })
  })
})
