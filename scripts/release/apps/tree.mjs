// node tree.mjs [FORBIDDEN...]: what an install put in ./node_modules, whatever the client (npm, pnpm, yarn):
// every package found (symlinks followed once), their count and their size on disk. Exits 1 when a package named
// in FORBIDDEN is among them, naming it. Prints one line: `<count> packages, <size> KiB[, forbidden: …]`.
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'

const forbidden = new Set(process.argv.slice(2))
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
console.log(
  `${ids.length} packages, ${Math.round(bytes / 1024)} KiB${found.length > 0 ? `, forbidden: ${found.join(' ')}` : ''}`,
)
process.exit(found.length > 0 ? 1 : 0)
