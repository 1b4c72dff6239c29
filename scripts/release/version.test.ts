import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'

// `pnpm release:version` run as a release runs it, on a small workspace that copies this repository's changeset
// configuration and changelog module: the case that once named an unpublished version in a changelog (a 0.x
// package whose peer dependency leaves its range), and dependency lines for users.

const run = promisify(execFile)
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
let work: string | undefined
afterEach(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true })
})

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}

/** A workspace of `@x/rules`, `@x/testing` (its peer `@x/rules ^0.1.0`) and `@x/serde` (pinning `@x/testing`). */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'x-release-version-'))
  write(join(dir, 'package.json'), JSON.stringify({ name: 'w', private: true, workspaces: ['packages/*'] }))
  mkdirSync(join(dir, '.changeset'))
  cpSync(join(root, '.changeset', 'config.json'), join(dir, '.changeset', 'config.json'))
  cpSync(join(root, 'scripts', 'release', 'changelog.cjs'), join(dir, 'scripts', 'release', 'changelog.cjs'))
  const manifest = (name: string, extra: object) =>
    `${JSON.stringify({ name: `@x/${name}`, version: '0.1.0', ...extra }, null, 2)}\n`
  write(join(dir, 'packages', 'rules', 'package.json'), manifest('rules', {}))
  write(
    join(dir, 'packages', 'testing', 'package.json'),
    manifest('testing', { peerDependencies: { '@x/rules': '^0.1.0' } }),
  )
  write(
    join(dir, 'packages', 'serde', 'package.json'),
    manifest('serde', { dependencies: { '@x/testing': '0.1.0' } }),
  )
  write(
    join(dir, '.changeset', 'rules-budget.md'),
    '---\n"@x/rules": minor\n---\n\nCEL rules stop after a cost budget.\nA second line of the same note.\n',
  )
  return dir
}

const versionOf = (dir: string, name: string) =>
  JSON.parse(readFileSync(join(dir, 'packages', name, 'package.json'), 'utf8')) as {
    version: string
    dependencies?: Record<string, string>
    peerDependencies?: Record<string, string>
  }

describe('pnpm release:version', () => {
  it('moves a 0.x package whose peer left its range a minor version, and every changelog names the versions written', async () => {
    work = workspace()
    await run(process.execPath, [join(root, 'scripts', 'release', 'version.mjs'), work])
    expect(['rules', 'testing', 'serde'].map((name) => versionOf(work as string, name).version)).toEqual([
      '0.2.0',
      '0.2.0',
      '0.1.1',
    ])
    expect(versionOf(work, 'testing').peerDependencies).toEqual({ '@x/rules': '^0.2.0' })
    expect(versionOf(work, 'serde').dependencies).toEqual({ '@x/testing': '0.2.0' })
    const changelog = (name: string) =>
      readFileSync(join(work as string, 'packages', name, 'CHANGELOG.md'), 'utf8')
    expect(changelog('rules')).toBe(
      '# @x/rules\n\n## 0.2.0\n\n### Minor Changes\n\n- CEL rules stop after a cost budget.\n  A second line of the same note.\n',
    )
    expect(changelog('testing')).toBe(
      '# @x/testing\n\n## 0.2.0\n\n### Patch Changes\n\n- Dependencies: @x/rules 0.2.0\n',
    )
    expect(changelog('serde')).toBe(
      '# @x/serde\n\n## 0.1.1\n\n### Patch Changes\n\n- Dependencies: @x/testing 0.2.0\n',
    )
  })

  it('still releases a major that a changeset asks for', async () => {
    work = workspace()
    write(
      join(work, '.changeset', 'testing-major.md'),
      '---\n"@x/testing": major\n---\n\nThe first stable release.\n',
    )
    await run(process.execPath, [join(root, 'scripts', 'release', 'version.mjs'), work])
    expect(versionOf(work, 'testing').version).toBe('1.0.0')
    expect(versionOf(work, 'serde').dependencies).toEqual({ '@x/testing': '1.0.0' })
  })
})
