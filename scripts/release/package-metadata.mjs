// What a published package's manifest and tarball must say, beyond what publint and attw check: metadata that is
// true or absent (never a placeholder), its CHANGELOG.md, and commands that `npx <package>` runs. Used by
// scripts/check-packages.mjs on every packed tarball.

/** The manifest fields that point people somewhere: each must be true or absent. */
const LINK_FIELDS = ['repository', 'homepage', 'bugs', 'author', 'contributors', 'maintainers', 'funding']

/**
 * Hosts and words that mark a placeholder: the reserved names of RFC 2606 and 6761 (`example.com`, `*.invalid`,
 * `*.example`, `*.test`, `*.localhost`), loopback, and the usual fill-ins.
 */
const PLACEHOLDER =
  /(?:^|[/@.\s:])(?:example\.(?:com|org|net)|[\w-]+\.(?:invalid|example|test|localhost)|localhost|127\.0\.0\.1)(?=$|[/:?#\s>)])|\b(?:todo|fixme|tbd|placeholder|your-(?:org|name|user)|owner\/repo)\b/i

/** Every string inside `value` (an object, array or string), with its path (`repository.url`). */
function* stringsOf(value, path) {
  if (typeof value === 'string') yield [path, value]
  else if (Array.isArray(value))
    for (const [i, item] of value.entries()) yield* stringsOf(item, `${path}[${i}]`)
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) yield* stringsOf(item, `${path}.${key}`)
}

/**
 * The problems of one packed package: `manifest` is its packed package.json, `files` the paths in its tarball
 * (`package/…`). Empty when it is fine.
 */
export function metadataProblems(manifest, files) {
  const problems = []
  for (const field of LINK_FIELDS) {
    if (!(field in manifest)) continue
    for (const [path, text] of stringsOf(manifest[field], field)) {
      if (PLACEHOLDER.test(text))
        problems.push(
          `${path} is a placeholder (${JSON.stringify(text)}): give the true value or leave it out`,
        )
    }
  }
  if (!files.includes('package/CHANGELOG.md'))
    problems.push('the tarball has no CHANGELOG.md: add "CHANGELOG.md" to the files of package.json')
  const bins = typeof manifest.bin === 'string' ? [manifest.name] : Object.keys(manifest.bin ?? {})
  if (bins.length > 1)
    problems.push(
      `bin names ${bins.length} commands (${bins.join(', ')}): \`npx ${manifest.name}\` runs a package's only command`,
    )
  return problems
}

/**
 * The places in `documents` (`{ path, text }`) that tell users to run `npx <command>` with a command of ours rather
 * than the package that holds it: npx looks that name up as a package, which does not exist (`npx x-serde` is a
 * 404; `npx @x/cli` runs it). `commands` maps each command to its package.
 */
export function npxProblems(documents, commands) {
  const problems = []
  for (const { path, text } of documents) {
    for (const [index, line] of text.split('\n').entries()) {
      for (const match of line.matchAll(/\bnpx\s+(?:-{1,2}[\w-]+(?:=\S+)?\s+)*([@\w./-]+)/g)) {
        const named = commands.get(match[1])
        if (named !== undefined && named !== match[1])
          problems.push(
            `${path}:${index + 1}: \`npx ${match[1]}\` looks up a package of that name: write \`npx ${named}\``,
          )
      }
    }
  }
  return problems
}

/**
 * What in a CHANGELOG.md is written for the release tooling rather than for users: a commit hash before an entry,
 * and changesets' "Updated dependencies" lines (one `Dependencies:` line names the versions instead).
 */
export function changelogProblems(text) {
  const problems = []
  for (const [index, line] of text.split('\n').entries()) {
    if (/^\s*- [0-9a-f]{7,40}: /.test(line))
      problems.push(`CHANGELOG.md:${index + 1}: a commit hash before the entry`)
    if (/^\s*- Updated dependencies\b/.test(line))
      problems.push(
        `CHANGELOG.md:${index + 1}: "Updated dependencies": one "- Dependencies:" line names the versions`,
      )
  }
  return problems
}
