import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { resolvedAvsc } from './avsc-version.js'

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

afterEach(() => {
  vi.doUnmock('./avsc-version.js')
  vi.resetModules()
})

describe('the avsc this package resolves', () => {
  it('is read from the package.json of the avsc that `import avro from "avsc"` loads', () => {
    const require = createRequire(join(packageDir, 'package.json'))
    expect(resolvedAvsc()).toEqual({
      version: (require('avsc/package.json') as { version: string }).version,
      where: require.resolve('avsc/package.json'),
    })
  })

  it('when it is another version, loading the package fails with an Error naming both versions', async () => {
    vi.resetModules()
    vi.doMock('./avsc-version.js', () => ({
      resolvedAvsc: () => ({ version: '5.8.0', where: '/app/node_modules/avsc/package.json' }),
    }))
    await expect(import('../index.js')).rejects.toThrow(
      '@x/avro-serde needs avsc 5.7.9 but found avsc 5.8.0 (/app/node_modules/avsc/package.json)',
    )
  })
})

describe('a user whose own avsc is hoisted over ours', () => {
  /** Temporary installs made by the tests, removed after each. */
  const made: string[] = []
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  /**
   * An application directory whose node_modules holds this package (its built dist) and, beside it, an avsc that
   * says it is `version`: the layout a package manager leaves when an override forces the application's avsc onto
   * every package. The fake avsc's `main` is the real avsc, so only the version differs.
   */
  function installWithAvsc(version: string): string {
    const app = mkdtempSync(join(tmpdir(), 'x-avro-hoisted-'))
    made.push(app)
    const modules = join(app, 'node_modules')
    const ours = join(modules, '@x', 'avro-serde')
    mkdirSync(ours, { recursive: true })
    cpSync(join(packageDir, 'package.json'), join(ours, 'package.json'))
    cpSync(join(packageDir, 'dist'), join(ours, 'dist'), { recursive: true })
    for (const dependency of ['errors', 'wire-format', 'registry-client', 'serde-core']) {
      symlinkSync(resolve(packageDir, '..', dependency), join(modules, '@x', dependency), 'dir')
    }
    const realAvsc = dirname(createRequire(join(packageDir, 'package.json')).resolve('avsc/package.json'))
    const fakeAvsc = join(modules, 'avsc')
    mkdirSync(fakeAvsc)
    writeFileSync(
      join(fakeAvsc, 'package.json'),
      JSON.stringify({ name: 'avsc', version, main: relative(fakeAvsc, join(realAvsc, 'lib', 'index.js')) }),
    )
    return app
  }

  async function importIn(app: string): Promise<{ ok: boolean; stderr: string }> {
    try {
      await promisify(execFile)(
        process.execPath,
        ['--input-type=module', '-e', "await import('@x/avro-serde')"],
        {
          cwd: app,
        },
      )
      return { ok: true, stderr: '' }
    } catch (error) {
      return { ok: false, stderr: String((error as { stderr?: unknown }).stderr) }
    }
  }

  it('sees the import fail at once with an Error naming avsc 5.7.9, the version found and where', async () => {
    const app = installWithAvsc('5.8.0')
    const { ok, stderr } = await importIn(app)
    expect(ok).toBe(false)
    expect(stderr).toContain('Error: @x/avro-serde needs avsc 5.7.9 but found avsc 5.8.0')
    expect(stderr).toContain(join('node_modules', 'avsc', 'package.json'))
  })

  it('imports it fine when the avsc beside it is 5.7.9 (the same install, so the failure above is the version)', async () => {
    const app = installWithAvsc('5.7.9')
    expect(await importIn(app)).toEqual({ ok: true, stderr: '' })
  })
})
