#!/usr/bin/env node
// `pnpm release:version`: `changeset version` (the versions, CHANGELOG.md and internal ranges of the packages the
// pending changesets release) with one rule of semver for 0.x changed: a package below 1.0.0 that changesets would
// take to 1.0.0 only because a peer dependency left its range (changesets' rule for peers) moves a minor version
// instead, as a breaking change does before 1.0.0. A changeset that asks for `major` itself still gets it. The plan
// is applied as changesets applies it, so the versions written into package.json, into dependents' ranges and into
// every changelog line are the versions published: nothing to correct by hand afterwards.
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)

/**
 * `plan` (changesets' release plan) with every release that `changesets` did not ask to be major, but that goes
 * from 0.x to a major, made a minor release instead (version and type).
 */
export function withZeroMajorsAsMinor(plan) {
  const askedMajor = new Set(
    plan.changesets.flatMap((changeset) =>
      changeset.releases.filter((release) => release.type === 'major').map((release) => release.name),
    ),
  )
  const releases = plan.releases.map((release) => {
    if (release.type !== 'major' || askedMajor.has(release.name) || !release.oldVersion.startsWith('0.'))
      return release
    const [, minor] = release.oldVersion.split('.').map(Number)
    return { ...release, type: 'minor', newVersion: `0.${minor + 1}.0` }
  })
  return { ...plan, releases }
}

async function main(cwd) {
  const interop = (module) => module.default ?? module
  const readChangesets = interop(require('@changesets/read'))
  const { read: readConfig } = require('@changesets/config')
  const assembleReleasePlan = interop(require('@changesets/assemble-release-plan'))
  const applyReleasePlan = interop(require('@changesets/apply-release-plan'))
  const { readPreState } = require('@changesets/pre')
  const { getPackages } = require('@manypkg/get-packages')

  const packages = await getPackages(cwd)
  const config = await readConfig(cwd, packages)
  const [changesets, preState] = await Promise.all([readChangesets(cwd), readPreState(cwd)])
  if (changesets.length === 0) {
    console.log('no pending changesets: nothing to version')
    return
  }
  const plan = withZeroMajorsAsMinor(assembleReleasePlan(changesets, packages, config, preState, undefined))
  await applyReleasePlan(plan, packages, config)
  for (const release of plan.releases.filter((r) => r.type !== 'none')) {
    console.log(`${release.name} ${release.oldVersion} → ${release.newVersion}`)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main(process.argv[2] ?? process.cwd())
}
