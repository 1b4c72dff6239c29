import { describe, expect, it } from 'vitest'
import { protoLinkProblems } from './proto-linker.js'

const proto3 = (body: string) => `syntax = "proto3";\n${body}\n`

describe('protoLinkProblems', () => {
  it('names two fields of one message that share a number', () => {
    expect(protoLinkProblems(proto3('message A { string a = 1; int32 b = 1; }'), {})).toEqual([
      'the fields a and b of A share the number 1',
    ])
  })

  it('names a field whose type no file in reach defines', () => {
    expect(protoLinkProblems(proto3('message A { message B { Missing m = 1; } B b = 1; }'), {})).toEqual([
      'the type Missing of field A.B.m is not a defined message or enum',
    ])
  })

  it('finds a nested type from inside its message and by its qualified name outside, not unqualified outside', () => {
    const text = proto3(
      'package p.q;\nmessage Outer { message Inner { string a = 1; } Inner i = 1; }\nmessage Other { Outer.Inner i = 1; .p.q.Outer o = 2; q.Outer l = 3; Inner bad = 4; }',
    )
    expect(protoLinkProblems(text, {})).toEqual([
      'the type Inner of field p.q.Other.bad is not a defined message or enum',
    ])
  })

  it('resolves well-known types only where their file is imported', () => {
    const imported = proto3(
      'import "google/protobuf/timestamp.proto";\nimport "google/type/money.proto";\nmessage A { google.protobuf.Timestamp t = 1; google.type.Money m = 2; }',
    )
    expect(protoLinkProblems(imported, {})).toEqual([])
    expect(protoLinkProblems(proto3('message A { google.protobuf.Timestamp t = 1; }'), {})).toEqual([
      'the type google.protobuf.Timestamp of field A.t is not a defined message or enum',
    ])
  })

  it('resolves types of a reference by its import path, and refuses an import nothing provides', () => {
    const other = proto3('package other;\nmessage B { string b = 1; }')
    const text = proto3('import "other.proto";\nmessage A { other.B b = 1; }')
    expect(protoLinkProblems(text, { 'other.proto': other })).toEqual([])
    expect(protoLinkProblems(text, {})).toEqual([
      'it imports "other.proto", which is neither a well-known file nor a reference',
      'the type other.B of field A.b is not a defined message or enum',
    ])
  })

  it('checks the referenced files too', () => {
    const other = proto3('package other;\nmessage B { string b = 1; int32 c = 1; }')
    expect(
      protoLinkProblems(proto3('import "other.proto";\nmessage A { string a = 1; }'), {
        'other.proto': other,
      }),
    ).toEqual(['the fields b and c of other.B share the number 1'])
  })

  it('refuses an rpc whose request or response is not a message', () => {
    const text = proto3(
      'message A { string a = 1; }\nenum E { E_ZERO = 0; }\nservice S { rpc Get (E) returns (stream Missing); }',
    )
    expect(protoLinkProblems(text, {})).toEqual([
      'the type E of the rpc S.Get is not a defined message',
      'the type Missing of the rpc S.Get is not a defined message',
    ])
  })

  it('refuses duplicate enum numbers unless aliases are allowed, and a proto3 enum not starting at 0', () => {
    expect(protoLinkProblems(proto3('enum E { E_ZERO = 0; E_ONE = 1; E_UNO = 1; }'), {})).toEqual([
      'the constants E_ONE and E_UNO of E share the number 1',
    ])
    expect(
      protoLinkProblems(
        proto3('enum E { option allow_alias = true; E_ZERO = 0; E_ONE = 1; E_UNO = 1; }'),
        {},
      ),
    ).toEqual([])
    expect(protoLinkProblems(proto3('enum E { E_ONE = 1; }'), {})).toEqual([
      'the first constant of the enum E is not 0, which proto3 requires',
    ])
  })

  it('refuses reserved numbers and names, the numbers 19000 to 19999, and JSON names two proto3 fields share', () => {
    expect(
      protoLinkProblems(proto3('message A { reserved 5 to 7, "c"; int32 b = 6; string c = 1; }'), {}),
    ).toEqual(['the field A.b uses the reserved number 6', 'the field A.c uses the reserved name c'])
    expect(protoLinkProblems(proto3('message A { string a = 19000; string b = 18999; }'), {})).toEqual([
      'the field A.a uses the number 19000, which protobuf reserves for itself',
    ])
    expect(protoLinkProblems(proto3('message A { string foo_bar = 1; string fooBar = 2; }'), {})).toEqual([
      'the fields foo_bar and fooBar of A share the JSON name fooBar',
    ])
  })

  it('lets a map key type through unresolved but resolves the value type', () => {
    expect(protoLinkProblems(proto3('message A { map<Missing, string> m = 1; }'), {})).toEqual([])
    expect(protoLinkProblems(proto3('message A { map<string, Missing> m = 1; }'), {})).toEqual([
      'the type Missing of field A.m is not a defined message or enum',
    ])
  })
})
