import type { CompatibilityIssue, FormatChecker } from './format-checker.js'

/**
 * The differences between the referenced schemas of an existing version and those of the proposed one, which the
 * registry never sees (it reads every version with the proposed version's references): each reference name both
 * versions have, with a different text, is compared as a schema of its own in the same direction, its other
 * references resolved as the proposed version's. Each issue names the reference in `reference` and in its message.
 */
export function referenceIssues(
  checker: FormatChecker,
  older: Readonly<Record<string, string>>,
  newer: Readonly<Record<string, string>>,
  compare: 'older-reads-newer' | 'newer-reads-older',
  resolveWith: Readonly<Record<string, string>>,
): CompatibilityIssue[] {
  const issues: CompatibilityIssue[] = []
  for (const name of Object.keys(older)) {
    if (!Object.hasOwn(newer, name)) continue
    const before = older[name] as string
    const after = newer[name] as string
    if (before === after) continue
    // a schema read among its own references would define its types twice
    const others = Object.fromEntries(Object.entries(resolveWith).filter(([other]) => other !== name))
    const found =
      compare === 'newer-reads-older'
        ? checker.backwardIssues(before, after, others)
        : checker.backwardIssues(after, before, others)
    for (const issue of found) {
      issues.push({
        path: issue.path,
        message: `In the referenced schema ${JSON.stringify(name)}: ${issue.message}`,
        reference: name,
      })
    }
  }
  return issues
}
