// node second-release.mjs ROOT DEST REGISTRY NPMRC [PACKAGE [BUMP]]: a second release made in a copy of the workspace (DEST), never
// in the workspace itself. A changeset to one package (PACKAGE, or the package with the most dependents
// that still leaves one package untouched; BUMP, minor by default) must release that package and,
// by changesets' rules, only dependents of it: each dependent whose range no longer takes the new version (an exact
// pin always), and theirs in turn; every other package keeps its version. The released packages are published to
// REGISTRY, their manifests must ask for the new versions, the dependents not released must take the new version by
// their published range, and an npm install of @x/serde must resolve it (and no other version of it).
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const [root, dest, registry, npmrc, chosen, chosenBump] = process.argv.slice(2)
if (!root || !dest || !registry || !npmrc) {
  console.error('usage: node second-release.mjs ROOT DEST REGISTRY NPMRC [PACKAGE [patch|minor|major]]')
  process.exit(2)
}

const INTERNAL_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies']

function readPackages(base) {
  const out = new Map()
  for (const dir of readdirSync(join(base, 'packages')).sort()) {
    const file = join(base, 'packages', dir, 'package.json')
    if (!existsSync(file)) continue
    const manifest = JSON.parse(readFileSync(file, 'utf8'))
    if (!manifest.private) out.set(manifest.name, manifest)
  }
  return out
}

/** The packages that depend on `name`, directly or through others. */
function dependentsOf(name, packages) {
  const found = new Set()
  const queue = [name]
  while (queue.length > 0) {
    const current = queue.shift()
    for (const [other, manifest] of packages) {
      if (found.has(other) || other === name) continue
      if (rangeOf(manifest, current) !== undefined) {
        found.add(other)
        queue.push(other)
      }
    }
  }
  return found
}

function rangeOf(manifest, name) {
  return INTERNAL_FIELDS.map((field) => manifest[field]?.[name]).find((range) => range !== undefined)
}

const parse = (version) => version.split('.').map(Number)

/** -1, 0 or 1 as version `v` is before, equal to or after version `w`. */
function compare(v, w) {
  const [a, b] = [parse(v), parse(w)]
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1
  return 0
}

/**
 * Whether `version` is within `range` as a `workspace:` range publishes: `*` (exactly `current`), `^` and `~`
 * (from `current`), or an explicit range: `^x.y.z`, `~x.y.z`, `x.y.z`, or comparators all of which must hold
 * (`>=0.2.0 <1.0.0`, as the optional peers take). The caret keeps the first non-zero part.
 */
function satisfies(range, current, version) {
  const spec = range.replace(/^workspace:/, '')
  if (spec === '*') return compare(version, current) === 0
  if (spec === '^' || spec === '~') return satisfiesOne(`${spec}${current}`, version)
  return spec
    .split(/\s+/)
    .filter(Boolean)
    .every((comparator) => satisfiesOne(comparator, version))
}

function satisfiesOne(comparator, version) {
  const [, op = '=', base] = /^(\^|~|>=|<=|>|<|=)?(\d+\.\d+\.\d+)$/.exec(comparator) ?? []
  if (base === undefined) throw new Error(`second-release.mjs cannot read the range part ${comparator}`)
  const [a, b] = parse(base)
  const [x, y] = parse(version)
  const order = compare(version, base)
  switch (op) {
    case '^':
      return order >= 0 && (a > 0 ? x === a : b > 0 ? x === 0 && y === b : order === 0)
    case '~':
      return order >= 0 && x === a && y === b
    case '>=':
      return order >= 0
    case '>':
      return order > 0
    case '<=':
      return order <= 0
    case '<':
      return order < 0
    default:
      return order === 0
  }
}

/** The field of `manifest` that names `name` among INTERNAL_FIELDS, as `rangeOf` finds it. */
function fieldOf(manifest, name) {
  return INTERNAL_FIELDS.find((field) => manifest[field]?.[name] !== undefined)
}

/**
 * What changesets releases with `updateInternalDependencies` as configured, for a `bump` of `name`: the package,
 * then every dependent whose range no longer takes the new version of what it depends on (an exact pin always), as
 * a patch, or as a major where that range is a peer range left by a minor or major release (changesets' rule for
 * peers, `onlyUpdatePeerDependentsWhenOutOfRange`; below 1.0.0 a minor, as `pnpm release:version` makes it), and so
 * on through their dependents.
 */
function expectedReleases(name, bump, packages) {
  const next = new Map([[name, bumpVersion(packages.get(name).version, bump)]])
  const bumps = new Map([[name, bump]])
  let grew = true
  while (grew) {
    grew = false
    for (const [other, manifest] of packages) {
      if (next.has(other)) continue
      for (const [dependency, version] of next) {
        const range = rangeOf(manifest, dependency)
        if (range !== undefined && !satisfies(range, packages.get(dependency).version, version)) {
          // A peer left by a minor or major release: a major, which below 1.0.0 is a minor (release:version).
          const peerLeft =
            fieldOf(manifest, dependency) === 'peerDependencies' && bumps.get(dependency) !== 'patch'
          const kind = !peerLeft ? 'patch' : manifest.version.startsWith('0.') ? 'minor' : 'major'
          next.set(other, bumpVersion(manifest.version, kind))
          bumps.set(other, kind)
          grew = true
          break
        }
      }
    }
  }
  return next
}

function bumpVersion(version, bump) {
  const [x, y, z] = parse(version)
  return bump === 'major' ? `${x + 1}.0.0` : bump === 'minor' ? `${x}.${y + 1}.0` : `${x}.${y}.${z + 1}`
}

function run(command, args, options = {}) {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options })
}

const before = readPackages(root)
let target = chosen
if (target === undefined) {
  const ranked = [...before.keys()]
    .map((name) => ({ name, dependents: dependentsOf(name, before).size }))
    .filter((p) => p.dependents > 0 && p.dependents < before.size - 1)
    .sort((a, b) => b.dependents - a.dependents || a.name.localeCompare(b.name))
  target = ranked[0]?.name
}
if (target === undefined || !before.has(target)) {
  console.error(`no package to release a second time (${target ?? 'none with dependents'})`)
  process.exit(1)
}
const bump = chosenBump ?? 'minor'
const expectedVersions = expectedReleases(target, bump, before)
const expected = new Set(expectedVersions.keys())
const dependents = dependentsOf(target, before)
console.log(
  `second release: a ${bump} changeset to ${target} (${dependents.size} dependents); expected releases: ${[...expected].sort().join(', ')}`,
)

// The copy: the workspace's manifests, built packages and release configuration, without node_modules.
mkdirSync(dest, { recursive: true })
for (const file of ['package.json', 'pnpm-workspace.yaml', '.npmrc']) {
  if (existsSync(join(root, file))) cpSync(join(root, file), join(dest, file))
}
cpSync(join(root, '.changeset', 'config.json'), join(dest, '.changeset', 'config.json'))
// The changelog module the configuration names, at the same place relative to it.
cpSync(join(root, 'scripts', 'release', 'changelog.cjs'), join(dest, 'scripts', 'release', 'changelog.cjs'))
// Without packageManager (nor a pnpm lockfile), changesets publishes with npm, which needs no node_modules.
const rootManifest = JSON.parse(readFileSync(join(dest, 'package.json'), 'utf8'))
delete rootManifest.packageManager
writeFileSync(join(dest, 'package.json'), `${JSON.stringify(rootManifest, null, 2)}\n`)
cpSync(join(root, 'packages'), join(dest, 'packages'), {
  recursive: true,
  filter: (source) => !/[/\\](node_modules|\.turbo|src)$/.test(source),
})
writeFileSync(
  join(dest, '.changeset', 'second-release-check.md'),
  `---\n"${target}": ${bump}\n---\n\nA patch release made by the registry stage to check how dependents follow.\n`,
)
const git = ['-c', 'user.email=ci@localhost', '-c', 'user.name=ci']
run('git', ['init', '-q'], { cwd: dest })
run('git', [...git, 'add', '-A'], { cwd: dest })
run('git', [...git, 'commit', '-qm', 'copy'], { cwd: dest })

const changeset = join(root, 'node_modules', '@changesets', 'cli', 'bin.js')
// As a release versions: `pnpm release:version`, changesets' version step with 0.x majors from peers as minors.
run(process.execPath, [join(root, 'scripts', 'release', 'version.mjs'), dest], { cwd: dest })

const after = readPackages(dest)
const bumped = [...after].filter(([name, m]) => m.version !== before.get(name)?.version).map(([name]) => name)
const problems = []
for (const name of bumped) {
  if (!dependents.has(name) && name !== target)
    problems.push(`${name} was released but does not depend on ${target}`)
}
for (const [name, version] of expectedVersions) {
  if (after.get(name).version !== version) {
    problems.push(`${name} is at ${after.get(name).version} after the release, expected ${version}`)
  }
}
for (const name of bumped) {
  if (!expected.has(name))
    problems.push(`${name} was released, though its range still takes the new versions`)
}
// Each changelog opens with the version released, and its dependency line names the versions this release publishes.
for (const name of bumped) {
  const dir = readdirSync(join(dest, 'packages')).find(
    (d) => existsSync(join(dest, 'packages', d, 'package.json')) && readPackagesDir(d)?.name === name,
  )
  const text = readFileSync(join(dest, 'packages', dir, 'CHANGELOG.md'), 'utf8')
  const section = text.split(/^## /m)[1] ?? ''
  if (!section.startsWith(`${after.get(name).version}\n`))
    problems.push(`${name}'s CHANGELOG.md does not open with ${after.get(name).version}`)
  if (/Updated dependencies/.test(section))
    problems.push(`${name}'s CHANGELOG.md lists "Updated dependencies"`)
  for (const [, dependency, version] of section.matchAll(/(@x\/[\w-]+) (\d+\.\d+\.\d+)/g)) {
    if (after.get(dependency)?.version !== version)
      problems.push(
        `${name}'s CHANGELOG.md names ${dependency} ${version}, released as ${after.get(dependency)?.version}`,
      )
  }
}
function readPackagesDir(dir) {
  return JSON.parse(readFileSync(join(dest, 'packages', dir, 'package.json'), 'utf8'))
}
for (const name of bumped) {
  console.log(`  ${name} ${before.get(name).version} → ${after.get(name).version}`)
}
console.log(`  unchanged: ${[...after.keys()].filter((n) => !bumped.includes(n)).join(', ')}`)
if (problems.length > 0) {
  console.error(problems.join('\n'))
  process.exit(1)
}

// The copy has no node_modules, so pnpm cannot publish it: its `workspace:` ranges are written out here as pnpm
// writes them when it publishes (`workspace:^` → `^1.2.3`, `workspace:~` → `~1.2.3`, `workspace:*` → `1.2.3`), and
// changesets publishes with npm.
for (const dir of readdirSync(join(dest, 'packages'))) {
  const file = join(dest, 'packages', dir, 'package.json')
  if (!existsSync(file)) continue
  const manifest = JSON.parse(readFileSync(file, 'utf8'))
  for (const field of [...INTERNAL_FIELDS, 'devDependencies']) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (!range.startsWith('workspace:')) continue
      const version = after.get(name)?.version
      if (version === undefined) {
        delete manifest[field][name] // a private workspace package, in devDependencies only
        continue
      }
      const spec = range.slice('workspace:'.length)
      manifest[field][name] =
        spec === '*' ? version : spec === '^' || spec === '~' ? `${spec}${version}` : spec
    }
  }
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)
}
const env = {
  ...process.env,
  NPM_CONFIG_USERCONFIG: npmrc,
  NPM_CONFIG_REGISTRY: registry,
  npm_config_registry: registry,
}
run(process.execPath, [changeset, 'publish', '--no-git-tag'], { cwd: dest, env })

const oldVersion = before.get(target).version
const newVersion = after.get(target).version
for (const name of bumped) {
  if (name === target) continue
  const version = after.get(name).version
  const manifest = JSON.parse(run('npm', ['view', `${name}@${version}`, '--json', '--registry', registry]))
  for (const [dependency, dependencyVersion] of expectedVersions) {
    const range = rangeOf(manifest, dependency)
    if (range !== undefined && !satisfies(range, dependencyVersion, dependencyVersion)) {
      problems.push(
        `${name}@${version} as published asks for ${dependency} ${range}, not ${dependencyVersion}`,
      )
    }
  }
}
// The dependents not released keep their published ranges: those must take the new version.
for (const name of dependents) {
  if (expected.has(name)) continue
  const version = before.get(name).version
  const manifest = JSON.parse(run('npm', ['view', `${name}@${version}`, '--json', '--registry', registry]))
  const range = rangeOf(manifest, target)
  if (range !== undefined && !satisfies(range, oldVersion, newVersion)) {
    problems.push(
      `${name}@${version} as published asks for ${target} ${range}, which leaves out ${newVersion}`,
    )
  }
}

// An application outside the workspace installs the new umbrella and gets the new version of the target only.
const umbrella = after.get('@x/serde')
if (umbrella !== undefined) {
  const app = join(dest, '..', 'second-release-app')
  mkdirSync(app, { recursive: true })
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'app', private: true, dependencies: { '@x/serde': umbrella.version } }),
  )
  writeFileSync(join(app, '.npmrc'), `@x:registry=${registry}\n`)
  const clean = { ...process.env }
  delete clean.NPM_CONFIG_REGISTRY
  delete clean.npm_config_registry
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app, env: clean })
  const versions = new Set()
  const walk = (dir) => {
    if (!existsSync(dir)) return
    for (const entry of readdirSync(dir)) {
      const names = entry.startsWith('@') ? readdirSync(join(dir, entry)).map((n) => join(entry, n)) : [entry]
      for (const name of names) {
        const file = join(dir, name, 'package.json')
        if (!existsSync(file)) continue
        const manifest = JSON.parse(readFileSync(file, 'utf8'))
        if (manifest.name === target) versions.add(manifest.version)
        walk(join(dir, name, 'node_modules'))
      }
    }
  }
  walk(join(app, 'node_modules'))
  console.log(`  @x/serde@${umbrella.version} installed: ${target} ${[...versions].join(', ')}`)
  if (versions.size !== 1 || !versions.has(newVersion)) {
    problems.push(`an install of @x/serde@${umbrella.version} holds ${target} ${[...versions].join(', ')}`)
  }
}
if (problems.length > 0) {
  console.error(problems.join('\n'))
  process.exit(1)
}
console.log(
  `second release: ${target} ${oldVersion} → ${newVersion}; ${bumped.length - 1} of its ${dependents.size} dependents released, the others take it by their range`,
)
