/** Apicurio's compatibility levels (`CompatibilityLevel`), the values of its `COMPATIBILITY` rule. */
export const COMPATIBILITY_LEVELS = [
  'BACKWARD',
  'BACKWARD_TRANSITIVE',
  'FORWARD',
  'FORWARD_TRANSITIVE',
  'FULL',
  'FULL_TRANSITIVE',
  'NONE',
] as const

/** One of Apicurio's seven compatibility levels. */
export type CompatibilityLevel = (typeof COMPATIBILITY_LEVELS)[number]

/** Whether `value` names one of the seven levels. */
export function isCompatibilityLevel(value: unknown): value is CompatibilityLevel {
  return typeof value === 'string' && (COMPATIBILITY_LEVELS as readonly string[]).includes(value)
}
