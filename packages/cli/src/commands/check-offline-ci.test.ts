import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cli, workFolder } from '../test-support/cli-harness.js'

const record = (...fields: object[]) => JSON.stringify({ type: 'record', name: 'Order', fields })
const V1 = record({ name: 'id', type: 'string' })
const V2 = record({ name: 'id', type: 'string' }, { name: 'note', type: 'string', default: '' })
const V3 = record({ name: 'id', type: 'string' }, { name: 'note', type: 'string' })
const NO_DEFAULT =
  'The reader\'s field "note" has no default, and the writer has no field of that name or of one of its aliases.'
const NOT_JSON = 'SchemaParseException: Unexpected end of JSON input'
const PROTO_ADDRESS = 'syntax = "proto3";\npackage common;\nmessage Address { string street = 1; }\n'
const PROTO_ORDER =
  'syntax = "proto3";\nimport "common/address.proto";\nmessage Order { common.Address a = 1; }\n'
const JSON_ORDER = JSON.stringify({ type: 'object', properties: { a: { $ref: 'address.json' } } })
const AVRO_ADDRESS = JSON.stringify({
  type: 'record',
  name: 'Address',
  namespace: 'com.example',
  fields: [{ name: 'street', type: 'string' }],
})
const AVRO_ORDER = JSON.stringify({
  type: 'record',
  name: 'Order',
  fields: [{ name: 'a', type: 'com.example.Address' }],
})

let folder: ReturnType<typeof workFolder>
const write = (name: string, text: string) => {
  mkdirSync(dirname(join(folder.path, name)), { recursive: true })
  writeFileSync(join(folder.path, name), text)
}
const x = (...args: string[]) => cli(args, { cwd: folder.path })
const offline = (...args: string[]) => x('check', '--offline', ...args)

beforeEach(() => {
  folder = workFolder()
})
afterEach(() => folder.done())

describe('check --offline in CI: a schema or reference that cannot be read', () => {
  it('exits 2 naming the proposed file and the reason when it is not JSON, not 1 as if it were incompatible', async () => {
    write('v1.avsc', V1)
    write('order.avsc', '{"type": "record", "name": "Order", "fields": [')
    expect(await offline('order.avsc', '--level', 'BACKWARD', '--against', 'v1.avsc')).toEqual({
      code: 2,
      stdout: `unreadable   order.avsc: order.avsc cannot be read as AVRO: ${NOT_JSON}\n`,
      stderr: `x-serde: order.avsc cannot be read as AVRO: ${NOT_JSON}\n`,
    })
  })

  it('names the --against file when that is the broken one', async () => {
    write('v1.avsc', '{"type": "record", "name": "Order", "fields": [')
    write('order.avsc', V2)
    expect(await offline('order.avsc', '--level', 'BACKWARD', '--against', 'v1.avsc')).toEqual({
      code: 2,
      stdout: `unreadable   order.avsc: v1.avsc cannot be read as AVRO: ${NOT_JSON}\n`,
      stderr: `x-serde: v1.avsc cannot be read as AVRO: ${NOT_JSON}\n`,
    })
    const json = await offline('order.avsc', '--level', 'BACKWARD', '--against', 'v1.avsc', '--json')
    expect([json.code, JSON.parse(json.stdout)]).toEqual([
      2,
      {
        file: 'order.avsc',
        format: 'AVRO',
        level: 'BACKWARD',
        against: ['v1.avsc'],
        compatible: false,
        issues: [{ path: '', message: `v1.avsc cannot be read as AVRO: ${NOT_JSON}.` }],
        unreadable: `cannot be read as AVRO: ${NOT_JSON}`,
        unreadableFile: 'v1.avsc',
      },
    ])
  })

  it('exits 2 for Protobuf text in an .avsc file and for an unknown Avro type, naming the file', async () => {
    write('v1.avsc', V1)
    write('order.avsc', PROTO_ORDER)
    const proto = await offline('order.avsc', '--level', 'BACKWARD', '--against', 'v1.avsc')
    expect([proto.code, proto.stderr]).toEqual([
      2,
      `x-serde: order.avsc cannot be read as AVRO: SchemaParseException: Unexpected token 's', "syntax = ""... is not valid JSON\n`,
    ])
    write('order.avsc', record({ name: 'id', type: 'strng' }))
    expect(await offline('order.avsc', '--level', 'BACKWARD', '--against', 'v1.avsc')).toEqual({
      code: 2,
      stdout:
        'unreadable   order.avsc: order.avsc uses the type "strng", which it does not define and no --reference or --reference-dir gives\n',
      stderr:
        'x-serde: order.avsc uses the type "strng", which it does not define and no --reference or --reference-dir gives\n',
    })
  })

  it('exits 2 naming a referenced file that cannot be read, even where the comparison would not need it', async () => {
    write('v1.proto', PROTO_ORDER)
    write('order.proto', PROTO_ORDER)
    write('refs/common/address.proto', 'message {')
    const run = await offline(
      'order.proto',
      '--level',
      'FULL',
      '--against',
      'v1.proto',
      '--reference-dir',
      'refs',
    )
    expect([run.code, run.stderr]).toEqual([
      2,
      `x-serde: refs/common/address.proto cannot be read as PROTOBUF (reference "common/address.proto"): expected a word but was '{' at 1:9\n`,
    ])
  })
})

describe('check --offline in CI: references', () => {
  it('makes a reference no flag gives a usage error (exit 2) for Protobuf, JSON Schema and Avro alike', async () => {
    write('v1.proto', PROTO_ORDER)
    write('order.proto', PROTO_ORDER)
    write('v1.json', JSON_ORDER)
    write('order.json', JSON_ORDER)
    write('v1.avsc', AVRO_ORDER)
    write('order.avsc', AVRO_ORDER)
    const unmapped = 'which no --reference or --reference-dir gives'
    const stderrOf = async (file: string, earlier: string) => {
      const run = await offline(file, '--level', 'FULL', '--against', earlier)
      return [run.code, run.stderr]
    }
    expect(await stderrOf('order.proto', 'v1.proto')).toEqual([
      2,
      `x-serde: order.proto imports "common/address.proto", ${unmapped}\n`,
    ])
    expect(await stderrOf('order.json', 'v1.json')).toEqual([
      2,
      `x-serde: order.json refers to "address.json" ($ref), ${unmapped}\n`,
    ])
    expect(await stderrOf('order.avsc', 'v1.avsc')).toEqual([
      2,
      `x-serde: order.avsc uses the type "com.example.Address", which it does not define and no --reference or --reference-dir gives\n`,
    ])
  })

  it('maps every file under --reference-dir by its path relative to it (an Avro file also by its full name)', async () => {
    write('schemas/common/address.proto', PROTO_ADDRESS)
    write(
      'schemas/address.json',
      JSON.stringify({ type: 'object', properties: { street: { type: 'string' } } }),
    )
    write('schemas/address.avsc', AVRO_ADDRESS)
    for (const [file, text] of [
      ['order.proto', PROTO_ORDER],
      ['order.json', JSON_ORDER],
      ['order.avsc', AVRO_ORDER],
    ] as const) {
      write(`v1${file.slice(5)}`, text)
      write(file, text)
      expect(
        await offline(
          file,
          '--level',
          'FULL',
          '--against',
          `v1${file.slice(5)}`,
          '--reference-dir',
          'schemas/',
        ),
      ).toEqual({
        code: 0,
        stdout: `compatible   ${file} under FULL against v1${file.slice(5)}\n`,
        stderr: '',
      })
    }
  })

  it('takes --reference NAME=FILE over the file of the same name under --reference-dir', async () => {
    write('schemas/common/address.proto', PROTO_ADDRESS)
    write('broken/address.proto', 'message {')
    write('v1.proto', PROTO_ORDER)
    write('order.proto', PROTO_ORDER)
    const args = ['order.proto', '--level', 'FULL', '--against', 'v1.proto', '--reference-dir', 'schemas']
    expect((await offline(...args)).code).toBe(0)
    const run = await offline(...args, '--reference', 'common/address.proto=broken/address.proto')
    expect([run.code, run.stderr]).toEqual([
      2,
      `x-serde: broken/address.proto cannot be read as PROTOBUF (reference "common/address.proto"): expected a word but was '{' at 1:9\n`,
    ])
  })
})

describe('check --offline --strict', () => {
  it('also compares a Protobuf import as it was at the git ref, which the registry never compares', async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: folder.path, stdio: 'pipe' })
    git('init', '-q')
    git('config', 'user.email', 'ci@example.invalid')
    git('config', 'user.name', 'CI')
    write('schemas/order.proto', PROTO_ORDER)
    write('schemas/common/address.proto', PROTO_ADDRESS.replace('string street', 'int32 street'))
    git('add', '.')
    git('commit', '-q', '-m', 'v1')
    write('schemas/common/address.proto', PROTO_ADDRESS)
    const args = [
      'schemas/order.proto',
      '--level',
      'FULL',
      '--against',
      'git:HEAD',
      '--reference-dir',
      'schemas',
    ]
    expect(await offline(...args)).toEqual({
      code: 0,
      stdout: 'compatible   schemas/order.proto under FULL against git:HEAD\n',
      stderr: '',
    })
    const changed = (from: string, to: string) =>
      `  - Address.street: In the referenced schema "common/address.proto": The field street of Address changed its type from ${from} to ${to}.\n`
    expect(await offline(...args, '--strict')).toEqual({
      code: 1,
      stdout: `incompatible schemas/order.proto under FULL against git:HEAD\n${changed('int32', 'string')}${changed('string', 'int32')}`,
      stderr: 'x-serde: schemas/order.proto is not FULL compatible with git:HEAD\n',
    })
  })
})

describe('check --offline in CI: levels, several schemas, many versions, help', () => {
  it('takes --level in any case, and an unknown one is one line, not the help', async () => {
    write('v1.avsc', V1)
    write('order.avsc', V2)
    expect(await offline('order.avsc', '--level', 'backward', '--against', 'v1.avsc')).toEqual({
      code: 0,
      stdout: 'compatible   order.avsc under BACKWARD against v1.avsc\n',
      stderr: '',
    })
    expect((await offline('order.avsc', '--level', 'Full_Transitive', '--against', 'v1.avsc')).code).toBe(0)
    expect(await offline('order.avsc', '--level', 'loose', '--against', 'v1.avsc')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'x-serde: --level must be one of BACKWARD, BACKWARD_TRANSITIVE, FORWARD, FORWARD_TRANSITIVE, FULL, FULL_TRANSITIVE, NONE (any case), got loose\n',
    })
  })

  it('takes --type in any case, and an unknown one is one line, not the help', async () => {
    write('v1.schema', V1)
    write('order.schema', V2)
    expect(
      await offline('order.schema', '--type', 'avro', '--level', 'BACKWARD', '--against', 'v1.schema'),
    ).toEqual({ code: 0, stdout: 'compatible   order.schema under BACKWARD against v1.schema\n', stderr: '' })
    expect(
      await offline('order.schema', '--type', 'xml', '--level', 'BACKWARD', '--against', 'v1.schema'),
    ).toEqual({ code: 2, stdout: '', stderr: 'x-serde: --type must be AVRO, JSON or PROTOBUF, got xml\n' })
  })

  it('checks several schemas against a git ref, one line each (one JSON document each with --json)', async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: folder.path, stdio: 'pipe' })
    git('init', '-q')
    git('config', 'user.email', 'ci@example.invalid')
    git('config', 'user.name', 'CI')
    write('schemas/a.avsc', V1)
    write('schemas/b.avsc', V1)
    git('add', '.')
    git('commit', '-q', '-m', 'v1')
    write('schemas/a.avsc', V2)
    write('schemas/b.avsc', V3)
    const args = ['schemas/a.avsc', 'schemas/b.avsc', '--level', 'BACKWARD', '--against', 'git:HEAD']
    expect(await offline(...args)).toEqual({
      code: 1,
      stdout:
        'compatible   schemas/a.avsc under BACKWARD against git:HEAD\n' +
        `incompatible schemas/b.avsc under BACKWARD against git:HEAD\n  - fields[1]: ${NO_DEFAULT}\n`,
      stderr: 'x-serde: 1 of 2 schemas are not compatible: schemas/b.avsc\n',
    })
    const json = await offline(...args, '--json')
    expect(json.code).toBe(1)
    expect(json.stdout.split('\n').map((line) => (line === '' ? '' : JSON.parse(line)))).toEqual([
      {
        file: 'schemas/a.avsc',
        format: 'AVRO',
        level: 'BACKWARD',
        against: ['git:HEAD'],
        compatible: true,
        issues: [],
      },
      {
        file: 'schemas/b.avsc',
        format: 'AVRO',
        level: 'BACKWARD',
        against: ['git:HEAD'],
        compatible: false,
        issues: [
          { path: 'fields[1]', message: NO_DEFAULT, cause: { description: 'note', context: '/fields/1' } },
        ],
      },
      '',
    ])
  })

  it('refuses an --against FILE with several schemas, as it is the earlier version of one', async () => {
    write('v1.avsc', V1)
    write('a.avsc', V2)
    write('b.avsc', V2)
    expect(await offline('a.avsc', 'b.avsc', '--level', 'BACKWARD', '--against', 'v1.avsc')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'x-serde: --against v1.avsc is the earlier version of one FILE, got 2: check them one by one, or give git:REF or lockfile\n',
    })
  })

  it('says 1 000 earlier versions in a few words, not one line naming them all', async () => {
    const against: string[] = []
    for (let index = 1; index <= 1000; index++) {
      const name = `v${String(index).padStart(4, '0')}.avsc`
      write(name, record({ name: 'id', type: 'string' }, { name: `f${index}`, type: 'string', default: '' }))
      against.push('--against', name)
    }
    write('order.avsc', V1)
    expect(await offline('order.avsc', '--level', 'BACKWARD_TRANSITIVE', ...against)).toEqual({
      code: 0,
      stdout:
        'compatible   order.avsc under BACKWARD_TRANSITIVE against 1000 earlier versions, v0001.avsc to v1000.avsc\n',
      stderr: '',
    })
  })

  it('describes the offline mode in the help', async () => {
    const help = await x('check', '--help')
    expect(help.code).toBe(0)
    expect(help.stdout).toContain(
      'Offline (--offline, no registry): each FILE is compared with its earlier versions',
    )
    expect(help.stdout).toContain('--reference-dir <dir>')
    expect(help.stdout).toContain(
      'Offline exit codes: 0 every FILE compatible, 1 one is not, 2 bad usage, or a schema or reference that cannot be\nread',
    )
  })
})
