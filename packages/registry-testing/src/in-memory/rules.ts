import { badRequest, RegistryProblem } from './problems.js'

/** Apicurio's rule types (`RuleType`). */
export const RULE_TYPES = ['VALIDITY', 'COMPATIBILITY', 'INTEGRITY'] as const
export type RuleType = (typeof RULE_TYPES)[number]

/** Where a rule is set: the whole registry, a group, or one artifact. Artifact rules win over group rules, which win over global ones. */
export type RuleScope =
  | { readonly kind: 'global' }
  | { readonly kind: 'group'; readonly groupId: string | null }
  | { readonly kind: 'artifact'; readonly groupId: string | null; readonly artifactId: string }

/**
 * The rules of every scope, each a map of type to config. Configs are stored as
 * given, as Apicurio does (`COMPATIBILITY` with an unknown level is accepted here and fails when it is applied).
 */
export class RuleStore {
  readonly #rules = new Map<string, Map<RuleType, string>>()

  /** The rule types of a scope, in alphabetical order (as Apicurio lists them). */
  list(scope: RuleScope): RuleType[] {
    return [...(this.#rules.get(keyOf(scope))?.keys() ?? [])].sort()
  }

  get(scope: RuleScope, type: RuleType): string | undefined {
    return this.#rules.get(keyOf(scope))?.get(type)
  }

  create(scope: RuleScope, type: RuleType, config: string): void {
    const key = keyOf(scope)
    const rules = this.#rules.get(key) ?? new Map<RuleType, string>()
    if (rules.has(type)) {
      throw new RegistryProblem(409, 'RuleAlreadyExistsException', `A rule named '${type}' already exists.`)
    }
    rules.set(type, config)
    this.#rules.set(key, rules)
  }

  update(scope: RuleScope, type: RuleType, config: string): void {
    const rules = this.#rules.get(keyOf(scope))
    if (rules?.has(type) !== true) throw ruleNotFound(type)
    rules.set(type, config)
  }

  delete(scope: RuleScope, type: RuleType): void {
    const rules = this.#rules.get(keyOf(scope))
    if (rules?.delete(type) !== true) throw ruleNotFound(type)
  }

  deleteAll(scope: RuleScope): void {
    this.#rules.delete(keyOf(scope))
  }

  /** The config in force for an artifact: its own rule, else its group's, else the global one. */
  effective(groupId: string | null, artifactId: string, type: RuleType): string | undefined {
    return (
      this.get({ kind: 'artifact', groupId, artifactId }, type) ??
      this.get({ kind: 'group', groupId }, type) ??
      this.get({ kind: 'global' }, type)
    )
  }
}

function keyOf(scope: RuleScope): string {
  switch (scope.kind) {
    case 'global':
      return 'global'
    case 'group':
      return JSON.stringify(['group', scope.groupId])
    case 'artifact':
      return JSON.stringify(['artifact', scope.groupId, scope.artifactId])
  }
}

export function ruleNotFound(type: string): RegistryProblem {
  return new RegistryProblem(404, 'RuleNotFoundException', `No rule named '${type}' was found.`)
}

/** A rule type from a path segment or a body: Apicurio answers 400 when it cannot read one. */
export function ruleTypeOf(value: unknown): RuleType {
  if (typeof value === 'string' && (RULE_TYPES as readonly string[]).includes(value)) return value as RuleType
  throw badRequest('BadRequestException', 'Not able to deserialize data provided.')
}
