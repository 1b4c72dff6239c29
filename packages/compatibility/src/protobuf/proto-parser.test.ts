import { describe, expect, it } from 'vitest'
import { ProtoSyntaxError, parseProto } from './proto-parser.js'

describe('parseProto', () => {
  it('reads fields with their labels, types as written (maps respaced) and 1-based positions', () => {
    const file = parseProto(
      [
        'syntax = "proto3";',
        'package shop.v1;',
        'message Order {',
        '  optional int32 quantity = 1;',
        '  repeated .shop.v1.Line lines = 2;',
        '  map< string ,int64 > counts = 3 [deprecated = true];',
        '  oneof payment { string card = 4; }',
        '}',
      ].join('\n'),
    )
    expect(file.syntax).toBe('proto3')
    expect(file.packageName).toBe('shop.v1')
    expect(file.messages[0]?.fields.map((f) => [f.label, f.type, f.name, f.tag, f.location])).toEqual([
      ['OPTIONAL', 'int32', 'quantity', 1, '4:3'],
      ['REPEATED', '.shop.v1.Line', 'lines', 2, '5:3'],
      [null, 'map<string, int64>', 'counts', 3, '6:3'],
      [null, 'string', 'card', 4, '7:19'],
    ])
    expect(file.messages[0]?.fields[2]?.options).toEqual([
      'OptionElement(name=deprecated, kind=BOOLEAN, value=true, isParenthesized=false)',
    ])
  })

  it('reads a file without syntax as proto2 and refuses a field without label there', () => {
    expect(parseProto('message A { optional int32 x = 1; }').syntax).toBe('proto2')
    expect(() => parseProto('message A { int32 x = 1; }')).toThrow(ProtoSyntaxError)
    expect(() => parseProto('syntax = "proto2"; message A { int32 x = 1; }')).toThrow(
      'unexpected label: int32 at 1:32',
    )
  })

  it("refuses 'required' in proto3", () => {
    expect(() => parseProto('syntax = "proto3"; message A { required int32 x = 1; }')).toThrow(
      "'required' label forbidden in proto3 field declarations at 1:32",
    )
  })

  it('keeps duplicate fields, reads groups over and keeps reserved ranges up to max as ranges', () => {
    const file = parseProto(
      'syntax = "proto2";\nmessage A {\n  optional int32 x = 1;\n  optional string x = 2;\n  optional group G = 3 { optional int32 z = 4; }\n  reserved 10 to max, "old";\n}\n',
    )
    expect(file.messages[0]?.fields.map((f) => `${f.name}=${f.tag}`)).toEqual(['x=1', 'x=2'])
    expect(file.messages[0]?.reserved).toEqual([[10, 536_870_911], 'old'])
  })

  it('lists imports with whether they are public, and extend blocks with their fields', () => {
    const file = parseProto(
      'syntax = "proto3";\nimport public "a.proto";\nimport weak "b.proto";\nimport "google/protobuf/descriptor.proto";\nextend google.protobuf.FieldOptions { string tag = 50000; }\n',
    )
    expect(file.imports).toEqual([
      { path: 'a.proto', isPublic: true },
      { path: 'b.proto', isPublic: false },
      { path: 'google/protobuf/descriptor.proto', isPublic: false },
    ])
    expect(
      file.extends.map((item) => [item.target, item.fields.map((f) => `${f.type} ${f.name}=${f.tag}`)]),
    ).toEqual([['google.protobuf.FieldOptions', ['string tag=50000']]])
  })

  it('reads enums with negative and hexadecimal numbers, and services with streams and option bodies', () => {
    const file = parseProto(
      'syntax = "proto3";\nenum E { option allow_alias = true; A = 0; B = -1; C = 0x10; }\nmessage M {}\nservice S {\n  rpc Call (stream M) returns (M) { option deprecated = true; }\n}\n',
    )
    expect(file.enums).toEqual([
      {
        name: 'E',
        constants: [
          ['A', 0],
          ['B', -1],
          ['C', 16],
        ],
        allowAlias: true,
        reserved: [],
      },
    ])
    expect(file.services).toEqual([
      {
        name: 'S',
        rpcs: [
          {
            name: 'Call',
            requestType: 'M',
            requestStreaming: true,
            responseType: 'M',
            responseStreaming: false,
          },
        ],
      },
    ])
  })

  it('refuses text that is not a .proto file', () => {
    expect(() => parseProto('syntax = "proto3";\nmessage A { int32 x = 1 \n')).toThrow(ProtoSyntaxError)
    expect(() => parseProto('{"type": "record"}')).toThrow(ProtoSyntaxError)
  })
})
