#!/usr/bin/env node
// bundle-dist.mjs: run in a package's directory after `tsc -b`; joins the JavaScript tsc wrote in dist/ into one
// file per entry point of the package's `exports` (dist/<entry>.bundle.js, what `exports` points at), with the
// code two entries share in one chunk beside them (so a class has one identity whichever entry it is reached
// through). Node then loads a few files instead of one per source file: the ES-module loader's cost per module is
// most of what importing the package costs.
//
// Every bare import stays an import: the other @x packages, third-party packages and Node's modules are loaded as
// before, so a user who installs one package gets that package alone and an application still has one copy of each.
// The bundles carry source maps (mappings only, no copy of the sources) chained through tsc's, so that a stack trace under
// `--enable-source-maps` names the package's src/*.ts files and lines.
import { readFileSync, rmSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { rolldown } from 'rolldown'

const SUFFIX = '.bundle.js'
const manifest = JSON.parse(readFileSync('package.json', 'utf8'))

/** `{ index: 'dist/index.js', … }` from every `exports` entry whose `default` is `./dist/<name>.bundle.js`. */
function entries() {
  const input = {}
  for (const target of Object.values(manifest.exports ?? {})) {
    const file = typeof target === 'string' ? target : target.default
    if (typeof file !== 'string' || !file.startsWith('./dist/') || !file.endsWith(SUFFIX)) continue
    const name = file.slice('./dist/'.length, -SUFFIX.length)
    input[name] = join('dist', `${name}.js`)
  }
  // a command's entry (`"bundle": ["bin"]`): what its launcher in bin/ imports, never an export (importing it runs it)
  for (const name of manifest.bundle ?? []) input[name] = join('dist', `${name}.js`)
  return input
}

/** Reads tsc's output with its source map, so that the bundle's map leads back to src/. */
const tscSourceMaps = {
  name: 'tsc-source-maps',
  load(id) {
    if (!id.endsWith('.js')) return null
    const code = readFileSync(id, 'utf8')
    const comment = /\n\/\/# sourceMappingURL=(\S+)\s*$/.exec(code)
    if (comment === null) return { code }
    const map = JSON.parse(readFileSync(join(id, '..', comment[1]), 'utf8'))
    return { code: code.slice(0, comment.index + 1), map }
  },
}

const input = entries()
if (Object.keys(input).length === 0) {
  console.error(`bundle-dist: ${manifest.name} has no exports pointing at ./dist/*${SUFFIX}`)
  process.exit(1)
}
// Chunks of an earlier build with another hash would linger: remove every bundle file first.
for (const file of await readdir('dist')) {
  if (file.endsWith(SUFFIX) || file.endsWith(`${SUFFIX}.map`)) rmSync(join('dist', file))
}
const bundle = await rolldown({
  input,
  platform: 'node',
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(id),
  // Keep every module's top-level statements: the code was written for per-file loading, not for tree shaking.
  treeshake: { moduleSideEffects: true },
  plugins: [tscSourceMaps],
})
await bundle.write({
  dir: 'dist',
  format: 'esm',
  entryFileNames: `[name]${SUFFIX}`,
  chunkFileNames: `[name]-[hash]${SUFFIX}`,
  sourcemap: true,
  // the maps name src/*.ts and their lines; the sources themselves stay out of the tarball's weight
  sourcemapExcludeSources: true,
})
await bundle.close()
