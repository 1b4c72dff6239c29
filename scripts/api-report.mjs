#!/usr/bin/env node
// The public surface of every package, as API Extractor reports it from the built `.d.ts` of each entry point of
// its `exports`: one report per entry point, committed as packages/<name>/etc/<report>.api.md.
//
//   node scripts/api-report.mjs           check: fails, with the difference, when a surface differs from its report
//   node scripts/api-report.mjs --update  rewrites the reports (review the diff: every export there is deliberate)
//
// Also fails when an entry point exports something tagged `@internal` (such a helper must not be exported), or
// when API Extractor cannot read the declarations. Run after `turbo run build` (`pnpm api:check` and
// `pnpm api:update` do both).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const update = process.argv.includes('--update')
const unknown = process.argv.slice(2).filter((arg) => arg !== '--update')
if (unknown.length > 0) {
  console.error(`Unknown argument ${unknown.join(' ')}; usage: node scripts/api-report.mjs [--update]`)
  process.exit(2)
}

/** Every entry point of every package under packages/*: its `exports` key, `.d.ts` file and report name. */
function entryPoints() {
  const found = []
  for (const dir of readdirSync(join(root, 'packages')).sort()) {
    const folder = join(root, 'packages', dir)
    const manifestPath = join(folder, 'package.json')
    if (!existsSync(manifestPath)) continue
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
    if (manifest.private) continue
    const unscoped = manifest.name.replace(/^@[^/]+\//, '')
    for (const [key, target] of Object.entries(manifest.exports ?? {})) {
      const types = typeof target === 'object' && target !== null ? target.types : undefined
      if (types === undefined) continue
      const sub = key === '.' ? '' : `-${key.replace(/^\.\//, '').replaceAll('/', '-')}`
      found.push({ folder, manifestPath, key, dts: join(folder, types), report: `${unscoped}${sub}` })
    }
  }
  return found
}

const temp = mkdtempSync(join(tmpdir(), 'x-api-report-'))
const failures = []
try {
  for (const entry of entryPoints()) {
    const label = `${relative(root, entry.folder)} ${entry.key}`
    if (!existsSync(entry.dts)) {
      failures.push(`${label}: ${relative(root, entry.dts)} is missing (build first)`)
      continue
    }
    if (update) mkdirSync(join(entry.folder, 'etc'), { recursive: true })
    const config = ExtractorConfig.prepare({
      configObjectFullPath: join(entry.folder, 'api-extractor.json'), // not read: only where relative paths start
      packageJsonFullPath: entry.manifestPath,
      configObject: {
        projectFolder: entry.folder,
        mainEntryPointFilePath: entry.dts,
        compiler: {
          overrideTsconfig: {
            compilerOptions: {
              target: 'ES2022',
              lib: ['ES2022', 'ESNext.Disposable', 'DOM'],
              module: 'NodeNext',
              moduleResolution: 'NodeNext',
              strict: true,
              skipLibCheck: true,
              types: ['node'],
            },
            files: [entry.dts],
          },
        },
        apiReport: {
          enabled: true,
          reportFileName: `${entry.report}.api.md`,
          reportFolder: join(entry.folder, 'etc'),
          reportTempFolder: join(temp, entry.report),
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        newlineKind: 'lf',
        messages: {
          compilerMessageReporting: { default: { logLevel: 'error' } },
          extractorMessageReporting: {
            default: { logLevel: 'warning' },
            // No release tags (@public/@beta) are used: everything exported is public.
            'ae-missing-release-tag': { logLevel: 'none' },
            // Documentation and its links are typedoc's to check (`pnpm docs`, warnings as errors).
            'ae-undocumented': { logLevel: 'none' },
            'ae-unresolved-link': { logLevel: 'none' },
            // A type used by an export but not exported itself: listed in the report, to be reviewed there.
            'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
            // An exported declaration tagged @internal: a helper that must not be exported.
            'ae-internal-missing-underscore': { logLevel: 'error', addToApiReportFile: false },
            'ae-internal-mixed-release-tag': { logLevel: 'error', addToApiReportFile: false },
          },
          tsdocMessageReporting: { default: { logLevel: 'none' } },
        },
      },
    })
    const messages = []
    const result = Extractor.invoke(config, {
      localBuild: update,
      messageCallback(message) {
        message.handled = true
        // The notices about the report file itself (changed, created, copied): said below, with the difference.
        if (message.messageId.startsWith('console-api-report-')) return
        if (message.logLevel === 'error' || message.logLevel === 'warning') {
          const where = message.sourceFilePath ? ` (${relative(root, message.sourceFilePath)})` : ''
          messages.push(`${message.logLevel} ${message.messageId}: ${message.text}${where}`)
        }
      },
    })
    const reportPath = relative(root, join(entry.folder, 'etc', `${entry.report}.api.md`))
    if (messages.length > 0) failures.push(`${label}:\n    ${messages.join('\n    ')}`)
    if (!result.succeeded && messages.length === 0 && !result.apiReportChanged)
      failures.push(`${label}: API Extractor failed`)
    if (result.apiReportChanged) {
      if (update) console.log(`updated ${reportPath}`)
      else {
        const now = join(temp, entry.report, `${entry.report}.api.md`)
        const diff = spawnSync(
          'git',
          ['diff', '--no-index', '--no-color', '--', join(root, reportPath), now],
          {
            encoding: 'utf8',
          },
        ).stdout
        failures.push(
          `${label}: the public surface differs from ${reportPath} (run pnpm api:update and review it):\n${diff}`,
        )
      }
    } else {
      console.log(`ok  ${reportPath}`)
    }
  }
} finally {
  rmSync(temp, { recursive: true, force: true })
}
if (failures.length > 0) {
  console.error(`\n${failures.join('\n')}`)
  process.exit(1)
}
