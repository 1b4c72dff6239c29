// node tree.mjs [--json FILE] [--max-bytes N] [FORBIDDEN...]: what an install put in ./node_modules, whatever the
// client (npm, pnpm, yarn): every package found (symlinks followed once), their count and their size on disk. Exits
// 1 when a package named in FORBIDDEN is among them, naming it, or when they take more than N bytes. Prints one
// line: `<count> packages, <size> KiB[, forbidden: …][, over N bytes]`; with --json, also writes
// `{ "packages": [name@version…], "bytes": … }` to FILE (the registry stage's install-size table reads it).
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const args = process.argv.slice(2)
const option = (name) => {
  const at = args.indexOf(name)
  return at < 0 ? undefined : args.splice(at, 2)[1]
}
const jsonFile = option('--json')
const maxBytes = option('--max-bytes')
const forbidden = new Set(args)
const packages = new Map() // real directory → name@version
const seenDirs = new Set()

function visitNodeModules(dir) {
  let entries
  try {
    entries = readdirSync(dir)
  } catch {
    return
  }
  for (const entry of entries) {
    if (entry === '.bin' || entry === '.cache' || entry.startsWith('.yarn')) continue
    if (entry === '.pnpm') {
      for (const id of readdirSync(join(dir, entry))) visitNodeModules(join(dir, entry, id, 'node_modules'))
      continue
    }
    if (entry.startsWith('@')) {
      for (const name of readdirSync(join(dir, entry))) visitPackage(join(dir, entry, name))
    } else if (!entry.startsWith('.')) {
      visitPackage(join(dir, entry))
    }
  }
}

function visitPackage(dir) {
  let real
  try {
    real = realpathSync(dir)
  } catch {
    return
  }
  if (seenDirs.has(real)) return
  seenDirs.add(real)
  let manifest
  try {
    manifest = JSON.parse(readFileSync(join(real, 'package.json'), 'utf8'))
  } catch {
    return
  }
  packages.set(real, `${manifest.name}@${manifest.version}`)
  visitNodeModules(join(real, 'node_modules'))
}

function sizeOf(dir) {
  let total = 0
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules') continue
    const path = join(dir, entry)
    const stat = lstatSync(path)
    if (stat.isDirectory()) total += sizeOf(path)
    else if (stat.isFile()) total += stat.size
  }
  return total
}

visitNodeModules('node_modules')
const ids = [...new Set(packages.values())].sort()
const bytes = [...packages.keys()].reduce(
  (sum, dir) => sum + (statSync(dir).isDirectory() ? sizeOf(dir) : 0),
  0,
)
const found = ids.filter((id) => forbidden.has(id.slice(0, id.lastIndexOf('@'))))
const over = maxBytes !== undefined && bytes > Number(maxBytes)
if (jsonFile !== undefined) writeFileSync(jsonFile, `${JSON.stringify({ packages: ids, bytes })}\n`)
console.log(
  `${ids.length} packages, ${Math.round(bytes / 1024)} KiB${found.length > 0 ? `, forbidden: ${found.join(' ')}` : ''}${over ? `, over ${maxBytes} bytes` : ''}`,
)
process.exit(found.length > 0 || over ? 1 : 0)
