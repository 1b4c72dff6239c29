// The changelog lines `changeset version` writes (`changelog` in .changeset/config.json), for the users of each
// package: a change is its changeset's own words, without a commit hash; the internal packages a release moves to
// are one line naming each with the version this release publishes ("Dependencies: @x/errors 0.3.0, …"), not one
// "Updated dependencies [hash]" line per changeset.

/** `- ` and the summary, its further lines indented under the item. */
async function getReleaseLine(changeset) {
  const [first, ...rest] = changeset.summary.trim().split('\n')
  return [`- ${first}`, ...rest.map((line) => (line.trim() === '' ? '' : `  ${line}`))].join('\n')
}

/** One line naming each internal package this release depends on anew, with its new version; none when none. */
async function getDependencyReleaseLine(_changesets, dependenciesUpdated) {
  if (dependenciesUpdated.length === 0) return ''
  const versions = new Map(dependenciesUpdated.map((dependency) => [dependency.name, dependency.newVersion]))
  const named = [...versions]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, version]) => `${name} ${version}`)
  return `- Dependencies: ${named.join(', ')}`
}

module.exports = { getReleaseLine, getDependencyReleaseLine }
