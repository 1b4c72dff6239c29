import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cli, workFolder } from '../test-support/cli-harness.js'

const record = (...fields: object[]) => JSON.stringify({ type: 'record', name: 'Order', fields })
const V1 = record({ name: 'id', type: 'string' })
const V2 = record({ name: 'id', type: 'string' }, { name: 'note', type: 'string', default: '' })
const V3 = record({ name: 'id', type: 'string' }, { name: 'note', type: 'string' })
const NO_DEFAULT =
  'The reader\'s field "note" has no default, and the writer has no field of that name or of one of its aliases.'

let folder: ReturnType<typeof workFolder>
const write = (name: string, text: string) => writeFileSync(join(folder.path, name), text)
const x = (...args: string[]) => cli(args, { cwd: folder.path })

beforeEach(() => {
  folder = workFolder()
})
afterEach(() => folder.done())

describe('check --offline', () => {
  it('takes a --reference named __proto__ or constructor as a reference like any other', async () => {
    const referring = (...fields: object[]) =>
      JSON.stringify({ type: 'record', name: 'Order', fields: [{ name: 'a', type: '__proto__' }, ...fields] })
    write(
      'proto.avsc',
      JSON.stringify({ type: 'record', name: '__proto__', fields: [{ name: 'x', type: 'int' }] }),
    )
    write('v1.avsc', referring())
    write('order.avsc', referring({ name: 'note', type: 'string', default: '' }))
    const run = await x(
      'check',
      '--offline',
      'order.avsc',
      '--level',
      'BACKWARD',
      '--against',
      'v1.avsc',
      '--reference',
      '__proto__=proto.avsc',
    )
    expect(run).toEqual({
      code: 0,
      stdout: 'compatible   order.avsc under BACKWARD against v1.avsc\n',
      stderr: '',
    })
  })

  it('reads a file whose name has #, ? or % by that name, not as a URL', async () => {
    // were the names read as URLs, "v1#old.avsc" would be the file "v1" and "v%31.avsc" the file "v1.avsc"
    write('v1', V3)
    write('v1.avsc', V3)
    for (const name of ['v1#old.avsc', 'v?1.avsc', 'v%31.avsc', 'v 1 é.avsc']) {
      write(name, V1)
      expect(await x('check', '--offline', name, '--level', 'BACKWARD', '--against', name)).toEqual({
        code: 0,
        stdout: `compatible   ${name} under BACKWARD against ${name}\n`,
        stderr: '',
      })
    }
    write('order.avsc', V3)
    expect(
      await x('check', '--offline', 'order.avsc', '--level', 'BACKWARD', '--against', 'v1#old.avsc'),
    ).toEqual({
      code: 1,
      stdout: `incompatible order.avsc under BACKWARD against v1#old.avsc\n  - fields[1]: ${NO_DEFAULT}\n`,
      stderr: 'x-serde: order.avsc is not BACKWARD compatible with v1#old.avsc\n',
    })
  })

  it('takes a link to a file under --reference-dir as that file, and skips dangling and looping links', async () => {
    mkdirSync(join(folder.path, 'real'))
    mkdirSync(join(folder.path, 'refs'))
    write('real/T.avsc', JSON.stringify({ type: 'record', name: 'T', namespace: 'n', fields: [] }))
    symlinkSync('../real/T.avsc', join(folder.path, 'refs/T.avsc'))
    symlinkSync('nowhere.avsc', join(folder.path, 'refs/dangling.avsc'))
    symlinkSync('..', join(folder.path, 'refs/loop'))
    write(
      'order.avsc',
      JSON.stringify({ type: 'record', name: 'Order', fields: [{ name: 't', type: 'n.T' }] }),
    )
    expect(
      await x(
        'check',
        '--offline',
        'order.avsc',
        '--level',
        'BACKWARD',
        '--against',
        'order.avsc',
        '--reference-dir',
        'refs',
      ),
    ).toEqual({ code: 0, stdout: 'compatible   order.avsc under BACKWARD against order.avsc\n', stderr: '' })
  })

  it('prints an unreadable file on one line, a line break quoted from it shown as \\n', async () => {
    write('v1.avsc', V1)
    write('order.avsc', 'junk\n')
    const run = await x('check', '--offline', 'order.avsc', '--level', 'BACKWARD', '--against', 'v1.avsc')
    const reason =
      'order.avsc cannot be read as AVRO: SchemaParseException: Unexpected token \'j\', "junk\\n" is not valid JSON'
    expect(run).toEqual({
      code: 2,
      stdout: `unreadable   order.avsc: ${reason}\n`,
      stderr: `x-serde: ${reason}\n`,
    })
  })

  it('exits 0 and says so when the file is compatible with the earlier one', async () => {
    write('v1.avsc', V1)
    write('order.avsc', V2)
    expect(
      await x('check', '--offline', 'order.avsc', '--level', 'BACKWARD', '--against', 'v1.avsc'),
    ).toEqual({
      code: 0,
      stdout: 'compatible   order.avsc under BACKWARD against v1.avsc\n',
      stderr: '',
    })
  })

  it('exits 1 with each issue as a path and a sentence when it is not', async () => {
    write('v1.avsc', V1)
    write('order.avsc', V3)
    expect(
      await x('check', '--offline', 'order.avsc', '--level', 'BACKWARD', '--against', 'v1.avsc'),
    ).toEqual({
      code: 1,
      stdout: `incompatible order.avsc under BACKWARD against v1.avsc\n  - fields[1]: ${NO_DEFAULT}\n`,
      stderr: 'x-serde: order.avsc is not BACKWARD compatible with v1.avsc\n',
    })
  })

  it('checks only the latest earlier version, or all of them under a transitive level', async () => {
    write('v1.avsc', V1)
    write('v2.avsc', V2)
    write('order.avsc', V3)
    const against = ['--against', 'v1.avsc', '--against', 'v2.avsc']
    expect((await x('check', '--offline', 'order.avsc', '--level', 'BACKWARD', ...against)).code).toBe(0)
    const transitive = await x(
      'check',
      '--offline',
      'order.avsc',
      '--level',
      'BACKWARD_TRANSITIVE',
      ...against,
    )
    expect([transitive.code, transitive.stderr]).toEqual([
      1,
      'x-serde: order.avsc is not BACKWARD_TRANSITIVE compatible with 2 earlier versions\n',
    ])
  })

  it('prints one JSON document with --json', async () => {
    write('v1.avsc', V1)
    write('order.avsc', V3)
    const run = await x(
      'check',
      '--offline',
      'order.avsc',
      '--level',
      'FULL',
      '--against',
      'v1.avsc',
      '--json',
    )
    expect(run.code).toBe(1)
    expect(JSON.parse(run.stdout)).toEqual({
      file: 'order.avsc',
      format: 'AVRO',
      level: 'FULL',
      against: ['v1.avsc'],
      compatible: false,
      issues: [
        { path: 'fields[1]', message: NO_DEFAULT, cause: { description: 'note', context: '/fields/1' } },
      ],
    })
  })

  it('reads the same file at a git ref with --against git:REF', async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: folder.path, stdio: 'pipe' })
    git('init', '-q')
    git('config', 'user.email', 'ci@example.invalid')
    git('config', 'user.name', 'CI')
    mkdirSync(join(folder.path, 'schemas'))
    write('schemas/order.avsc', V1)
    git('add', '.')
    git('commit', '-q', '-m', 'v1')
    write('schemas/order.avsc', V3)
    const run = await x(
      'check',
      '--offline',
      'schemas/order.avsc',
      '--level',
      'BACKWARD',
      '--against',
      'git:HEAD',
    )
    expect(run).toEqual({
      code: 1,
      stdout: `incompatible schemas/order.avsc under BACKWARD against git:HEAD\n  - fields[1]: ${NO_DEFAULT}\n`,
      stderr: 'x-serde: schemas/order.avsc is not BACKWARD compatible with git:HEAD\n',
    })
    const missing = await x(
      'check',
      '--offline',
      'schemas/order.avsc',
      '--level',
      'BACKWARD',
      '--against',
      'git:nope',
    )
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/^x-serde: Cannot read schemas\/order\.avsc at git:nope: /)
  })

  it.each([
    ['null', 'expected an object with an artifacts array'],
    ['{"artifacts":{}}', 'expected an object with an artifacts array'],
    ['{"artifacts":[null]}', 'artifacts[0] is not an object'],
    ['{"artifacts":[{"groupId":"default","artifactId":"order"}]}', 'artifacts[0].version is not a string'],
    [
      '{"artifacts":[{"groupId":"default","artifactId":"order","version":"1","file":"order.avsc","sha256":"00"}]}',
      'artifacts[0].references is not an array',
    ],
  ])('exits 2 naming what is wrong in a lockfile %s, not 1 as if incompatible', async (text, what) => {
    write('order.avsc', V1)
    write('x-serde.lock.json', text)
    expect(
      await x('check', '--offline', 'order.avsc', '--level', 'BACKWARD', '--against', 'lockfile'),
    ).toEqual({
      code: 2,
      stdout: '',
      stderr: `x-serde: The lockfile ${join(folder.path, 'x-serde.lock.json')} is not one x-serde pull wrote: ${what} (run x-serde pull again)\n`,
    })
  })

  it('reads the version x-serde pull locked, with its level, and refuses it once it was edited', async () => {
    mkdirSync(join(folder.path, 'schemas/default'), { recursive: true })
    write('schemas/default/orders-value.avsc', V1)
    const locked = {
      groupId: 'default',
      artifactId: 'orders-value',
      version: '1',
      artifactType: 'AVRO',
      globalId: '1',
      contentId: '1',
      sha256: createHash('sha256').update(V1).digest('hex'),
      file: 'schemas/default/orders-value.avsc',
      references: [],
    }
    write('x-serde.lock.json', JSON.stringify({ lockfileVersion: 1, artifacts: [locked] }))
    write('order.avsc', V3)
    const args = ['check', '--offline', 'order.avsc', '--artifact', 'orders-value', '--level', 'FORWARD']
    expect((await x(...args.slice(0, -2), '--against', 'lockfile')).code).toBe(2)
    write(
      'x-serde.lock.json',
      JSON.stringify({ lockfileVersion: 1, artifacts: [{ ...locked, compatibility: 'BACKWARD' }] }),
    )
    // The level pull recorded for the artifact, unless --level says otherwise.
    expect((await x(...args.slice(0, -2), '--against', 'lockfile')).stdout).toBe(
      `incompatible order.avsc under BACKWARD against schemas/default/orders-value.avsc (lockfile)\n  - fields[1]: ${NO_DEFAULT}\n`,
    )
    expect(await x(...args, '--against', 'lockfile')).toEqual({
      code: 0,
      stdout: 'compatible   order.avsc under FORWARD against schemas/default/orders-value.avsc (lockfile)\n',
      stderr: '',
    })
    write('schemas/default/orders-value.avsc', V2)
    expect(await x(...args, '--against', 'lockfile')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'x-serde: schemas/default/orders-value.avsc no longer matches the lockfile (changed since x-serde pull?): run x-serde pull again\n',
    })
  })

  it('exits 2 on bad usage: no earlier version, no or an unknown level, two files, offline options alone', async () => {
    write('v1.avsc', V1)
    write('order.avsc', V2)
    write('order.txt', V2)
    const usage = async (...args: string[]) => {
      const run = await x(...args)
      return [run.code, run.stdout]
    }
    expect(await usage('check', '--offline', 'order.avsc', '--level', 'BACKWARD')).toEqual([2, ''])
    expect(await usage('check', '--offline', 'order.avsc', '--against', 'v1.avsc')).toEqual([2, ''])
    expect(
      await usage('check', '--offline', 'order.avsc', '--level', 'LOOSE', '--against', 'v1.avsc'),
    ).toEqual([2, ''])
    expect(
      await usage('check', '--offline', 'order.avsc', 'v1.avsc', '--level', 'NONE', '--against', 'v1.avsc'),
    ).toEqual([2, ''])
    expect(await usage('check', 'order.avsc', '--level', 'BACKWARD', '--against', 'v1.avsc')).toEqual([2, ''])
    expect(await usage('check', '--offline', 'order.txt', '--level', 'NONE', '--against', 'v1.avsc')).toEqual(
      [2, ''],
    )
  })
})
