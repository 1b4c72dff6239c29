/** The problems of one packed package (its packed package.json and the paths in its tarball); empty when fine. */
export function metadataProblems(manifest: Record<string, unknown>, files: readonly string[]): string[]

/** Where `documents` tell users to run `npx <command>` with a command of ours instead of its package. */
export function npxProblems(
  documents: readonly { path: string; text: string }[],
  commands: ReadonlyMap<string, string>,
): string[]

/** Lines of a CHANGELOG.md written for the release tooling (commit hashes, "Updated dependencies"), by line. */
export function changelogProblems(text: string): string[]
