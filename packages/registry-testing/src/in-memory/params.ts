import { parseLong } from './ids.js'
import { badRequest, RegistryProblem, unconvertibleParameter } from './problems.js'

// Reading path and query parameters the way Apicurio's JAX-RS layer (RESTEasy) reads them, failures included.

const BEANS = 'io.apicurio.registry.rest.v3.beans'

/** Apicurio's "null group": `default`, in any letter case, is the default group, stored as `null`. */
export function rawGroupId(groupId: string): string | null {
  return groupId.toLowerCase() === 'default' ? null : groupId
}

/**
 * A query parameter bound to a Java enum: absent or empty is `undefined`; an unknown constant is RESTEasy's 404
 * (`Unable to extract parameter from http request`).
 */
export function enumQuery<T extends string>(
  query: URLSearchParams,
  name: string,
  javaEnum: string,
  values: readonly T[],
): T | undefined {
  const value = query.get(name)
  if (value === null || value === '') return undefined
  if ((values as readonly string[]).includes(value)) return value as T
  const enumClass = javaEnum.includes('.') ? javaEnum : `${BEANS}.${javaEnum}`
  throw unconvertibleParameter(
    'QueryParam',
    name,
    value,
    `IllegalArgumentException: No enum constant ${enumClass}.${value}`,
  )
}

/** A `Boolean` query parameter: Java's `Boolean.valueOf`, so only `true` (any case) is true. */
export function booleanQuery(query: URLSearchParams, name: string): boolean {
  return query.get(name)?.toLowerCase() === 'true'
}

/**
 * A paging parameter (`offset`, `limit`), a Java `BigInteger`. A negative one is a 400 `InvalidParameterValueException`
 * (Apicurio 3.3 fails it in the database, a 500; a malformed request is never a 500 here); a huge one is capped.
 */
export function pagingQuery(query: URLSearchParams, name: 'offset' | 'limit', fallback: number): number {
  const value = query.get(name)
  if (value === null || value === '') return fallback
  if (!/^[+-]?\d+$/.test(value)) {
    throw unconvertibleParameter(
      'QueryParam',
      name,
      value,
      `NumberFormatException: For input string: "${value}"`,
    )
  }
  const number = Number(value)
  if (number < 0) {
    throw badRequest(
      'InvalidParameterValueException',
      `Invalid value '${value}' for parameter '${name}': it must be 0 or more.`,
    )
  }
  return Math.min(number, 2 ** 31 - 1)
}

/** A `long` path parameter (`globalId`, `contentId`); a non-number is RESTEasy's 404. */
export function longPath(name: string, value: string): bigint {
  const id = parseLong(value)
  if (id === undefined) {
    throw unconvertibleParameter(
      'PathParam',
      name,
      value,
      `NumberFormatException: For input string: "${value}"`,
    )
  }
  return id
}

const VERSION_PATTERN = /^[a-zA-Z0-9._\-+]{1,256}$/

/** Whether `version` is a valid version (or branch) id. */
export function isValidVersion(version: string): boolean {
  return VERSION_PATTERN.test(version)
}

/** A parsed `{versionExpression}`: a literal version, or the tip of a branch (`branch=latest`). */
export type VersionExpression = { readonly version: string } | { readonly branch: string }

export function parseVersionExpression(expression: string): VersionExpression {
  if (expression.startsWith('branch=')) {
    const branch = expression.slice('branch='.length)
    if (isValidVersion(branch)) return { branch }
  } else if (isValidVersion(expression)) {
    return { version: expression }
  }
  throw new RegistryProblem(400, 'ValidationException', `Could not parse version expression '${expression}'.`)
}

/** The checks Apicurio makes of a group id in a request that creates something. */
export function checkNewGroupId(groupId: string): void {
  if (groupId.length > 512) {
    throw badRequest(
      'ValidationException',
      `Group ID '${groupId}' is invalid. It must have length 1..512 (inclusive).`,
    )
  }
  if (!isAsciiWithoutPercent(groupId)) {
    throw badRequest(
      'InvalidGroupIdException',
      'Character % and non ASCII characters are not allowed in group IDs.',
    )
  }
}

/**
 * The length checks Apicurio makes of the group and artifact ids in a lookup path (`GA`). The `%`/non-ASCII rule
 * is applied only when something is created: a lookup of such a group is simply not found (404).
 */
export function checkIdLengths(groupId: string, artifactId: string): void {
  if (groupId.length > 512) {
    throw badRequest(
      'ValidationException',
      `Group ID '${groupId}' is invalid. It must have length 1..512 (inclusive).`,
    )
  }
  if (artifactId.length > 512) {
    throw badRequest(
      'ValidationException',
      `Artifact ID '${artifactId}' is invalid. It must have length 1..512 (inclusive).`,
    )
  }
}

/**
 * The checks Apicurio makes of an artifact id in a request that creates something. An id longer than 512
 * characters only fails in the database (a 500), after the content was stored.
 */
export function checkNewArtifactId(artifactId: string): void {
  if (!isAsciiWithoutPercent(artifactId)) {
    throw badRequest(
      'InvalidArtifactIdException',
      'Character % and non ASCII characters are not allowed in artifact IDs.',
    )
  }
}

function isAsciiWithoutPercent(id: string): boolean {
  for (let i = 0; i < id.length; i++) {
    const code = id.charCodeAt(i)
    if (code > 0x7f || code === 0x25) return false
  }
  return true
}
