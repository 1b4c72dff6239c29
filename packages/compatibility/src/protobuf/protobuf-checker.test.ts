import { describe, expect, it } from 'vitest'
import { checkCompatibility } from '../check-compatibility.js'
import { protobufChecker } from './protobuf-checker.js'

const proto = (body: string) => `syntax = "proto3";\npackage p;\nmessage A {\n${body}\n}\n`
const v1 = proto('  int32 x = 1;')
const v2 = proto('  int32 x = 1;\n  string y = 2;')

describe('protobufChecker', () => {
  it('accepts an added field under BACKWARD and refuses it under FORWARD, as Apicurio compares the files both ways', () => {
    expect(
      checkCompatibility({ format: 'PROTOBUF', level: 'BACKWARD', existing: [v1], proposed: v2 }),
    ).toEqual({
      compatible: true,
      issues: [],
    })
    expect(
      checkCompatibility({ format: 'PROTOBUF', level: 'FORWARD', existing: [v1], proposed: v2 }),
    ).toEqual({
      compatible: false,
      issues: [
        {
          path: 'A',
          message: 'The message A lost the field(s) "y" without reserving their names and numbers.',
          cause: { description: '2 fields removed without reservation, message A', context: '/A' },
        },
        {
          path: 'A.y',
          message: 'Number 2 of A (y) is gone and not reserved.',
          cause: { description: 'Field name changed, message A , before: y , after null', context: '/A' },
        },
      ],
    })
  })

  it('accepts a removed field whose number and name are reserved, and refuses one that is not', () => {
    const reserved = proto('  int32 x = 1;\n  reserved 2, "y";')
    expect(protobufChecker.backwardIssues(v2, reserved, {})).toEqual([])
    expect(protobufChecker.backwardIssues(v2, v1, {}).map((issue) => issue.cause?.description)).toEqual([
      '2 fields removed without reservation, message A',
      'Field name changed, message A , before: y , after null',
    ])
  })

  it('counts the numbers a narrowed reserved range gives up without listing them', () => {
    const wide = proto('  int32 x = 1;\n  reserved 1000 to max;')
    const narrow = proto('  int32 x = 1;\n  reserved 1000 to 2000;')
    expect(protobufChecker.backwardIssues(wide, narrow, {}).map((issue) => issue.cause?.description)).toEqual(
      ['536868911 reserved fields were removed, message A'],
    )
  })

  it('compares message types by the name they resolve to, not by how they are written', () => {
    const written = (type: string) =>
      `syntax = "proto3";\npackage p;\nmessage B {}\nmessage A {\n  ${type} b = 1;\n}\n`
    expect(protobufChecker.backwardIssues(written('B'), written('p.B'), {})).toEqual([])
    expect(protobufChecker.backwardIssues(written('B'), written('.p.B'), {})).toEqual([])
    expect(protobufChecker.backwardIssues(written('B'), written('A'), {})).toEqual([
      {
        path: 'A.b',
        message: 'The field b of A changed its type from B to A.',
        cause: { description: 'Field type changed, message A , before: B , after A', context: '/A' },
      },
    ])
  })

  it('says a file that does not parse is not valid, and accepts one that does', () => {
    expect(protobufChecker.validate(v1, {}, 'FULL')).toEqual([])
    expect(protobufChecker.validate('message A {', {}, 'FULL')).toEqual([
      { path: '', message: 'The schema is not valid Protobuf: unexpected end of file.' },
    ])
  })
})
