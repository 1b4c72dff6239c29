import { toJsonText } from './json-text.js'

/**
 * An error answer of the registry, shaped as Apicurio 3.3 writes it: a `ProblemDetails` body
 * `{"detail":"<Exception>: <message>","title":"<message>","status":N,"name":"<Exception>"}` with
 * `Content-Type: application/json`. Thrown inside InMemoryRegistry's handlers and turned into the answer by the
 * router; it never reaches users' code.
 */
export class RegistryProblem extends Error {
  override name = 'RegistryProblem'
  readonly status: number
  /** The simple class name of the Java exception Apicurio reports (`ArtifactNotFoundException`, ...). */
  readonly exception: string
  readonly title: string
  /** The `detail` text; Apicurio writes `<root exception>: <root message>`. */
  readonly detail: string
  /** Extra answer headers (`Allow` on a 405). */
  readonly headers: Readonly<Record<string, string>>
  /** Whether the body is the bare title instead of JSON (Apicurio's answer to malformed JSON). */
  readonly plain: boolean
  /** The causes of a `RuleViolationException` (`RuleViolationProblemDetails`), written first. */
  readonly causes: readonly { description: string; context: string }[] | undefined

  constructor(
    status: number,
    exception: string,
    title: string,
    options: {
      detail?: string
      headers?: Record<string, string>
      plain?: boolean
      causes?: readonly { description: string; context: string }[]
    } = {},
  ) {
    super(title)
    this.status = status
    this.exception = exception
    this.title = title
    this.detail = options.detail ?? `${exception}: ${title}`
    this.headers = options.headers ?? {}
    this.plain = options.plain ?? false
    this.causes = options.causes
  }

  /** The answer body, with its members in Apicurio's order. */
  body(): string {
    if (this.plain) return this.title
    const problem = { detail: this.detail, title: this.title, status: this.status, name: this.exception }
    if (this.causes === undefined) return toJsonText(problem)
    return toJsonText({ causes: this.causes.map((cause) => ({ ...cause })), ...problem })
  }
}

/** How Apicurio names a group in "not found" messages: the raw id, which is `null` for the default group. */
function rawGroupName(groupId: string | null): string {
  return groupId ?? 'null'
}

export function artifactNotFound(groupId: string | null, artifactId: string): RegistryProblem {
  return new RegistryProblem(
    404,
    'ArtifactNotFoundException',
    `No artifact with ID '${artifactId}' in group '${rawGroupName(groupId)}' was found.`,
  )
}

export function versionNotFound(
  groupId: string | null,
  artifactId: string,
  version: string,
): RegistryProblem {
  return new RegistryProblem(
    404,
    'VersionNotFoundException',
    `No version '${version}' found for artifact with ID '${artifactId}' in group '${rawGroupName(groupId)}'.`,
  )
}

/** The tip of a branch was asked for and there is none; Apicurio names the default group `default` here. */
export function branchTipNotFound(
  groupId: string | null,
  artifactId: string,
  branch: string,
): RegistryProblem {
  return new RegistryProblem(
    404,
    'VersionNotFoundException',
    `No version '<tip of the branch '${branch}'>' found for artifact with ID '${artifactId}' in group '${groupId ?? 'default'}'.`,
  )
}

export function globalIdNotFound(globalId: string): RegistryProblem {
  return new RegistryProblem(
    404,
    'VersionNotFoundException',
    `No version with global ID '${globalId}' found.`,
  )
}

export function contentIdNotFound(contentId: string): RegistryProblem {
  return new RegistryProblem(404, 'ContentNotFoundException', `No content with ID '${contentId}' was found.`)
}

export function contentHashNotFound(hash: string): RegistryProblem {
  return new RegistryProblem(404, 'ContentNotFoundException', `No content with hash '${hash}' was found.`)
}

export function groupNotFound(groupId: string): RegistryProblem {
  return new RegistryProblem(404, 'GroupNotFoundException', `No group '${groupId}' was found.`)
}

/** 409 on `ifExists=FAIL`; the group is named as the request spelled it. */
export function artifactAlreadyExists(groupId: string, artifactId: string): RegistryProblem {
  return new RegistryProblem(
    409,
    'ArtifactAlreadyExistsException',
    `An artifact with ID '${artifactId}' in group '${groupId}' already exists.`,
  )
}

export function versionAlreadyExists(groupId: string, artifactId: string, version: string): RegistryProblem {
  return new RegistryProblem(
    409,
    'VersionAlreadyExistsException',
    `An artifact version '${version}' for artifact ID '${artifactId}' in group '${groupId}' already exists.`,
  )
}

export function badRequest(exception: string, title: string): RegistryProblem {
  return new RegistryProblem(400, exception, title)
}

export function missingParameter(parameter: string): RegistryProblem {
  return badRequest(
    'MissingRequiredParameterException',
    `Request is missing a required parameter: ${parameter}`,
  )
}

/** 405 for a deletion that the registry's configuration does not allow (Apicurio's default). */
export function deletionNotEnabled(what: 'Artifact' | 'Artifact version' | 'Group'): RegistryProblem {
  return new RegistryProblem(405, 'NotAllowedException', `${what} deletion operation is not enabled.`, {
    headers: { Allow: 'GET' },
  })
}

/** RESTEasy's 404 for a query or path parameter it cannot convert (an unknown enum constant, a non-number). */
export function unconvertibleParameter(
  kind: 'QueryParam' | 'PathParam',
  parameter: string,
  value: string,
  rootCause: string,
): RegistryProblem {
  return new RegistryProblem(
    404,
    'NotFoundException',
    `RESTEASY003870: Unable to extract parameter from http request: jakarta.ws.rs.${kind}("${parameter}") value is '${value}'`,
    { detail: rootCause },
  )
}

/** RESTEasy's 404 for a path no resource serves. */
export function noResource(fullUrl: string): RegistryProblem {
  return new RegistryProblem(
    404,
    'NotFoundException',
    `RESTEASY003210: Could not find resource for full path: ${fullUrl}`,
  )
}

/** RESTEasy's 405 for a method a resource does not serve. */
export function methodNotAllowed(method: string, allow: string): RegistryProblem {
  return new RegistryProblem(
    405,
    'NotAllowedException',
    `RESTEASY003650: No resource method found for ${method}, return 405 with Allow header`,
    { headers: { Allow: allow } },
  )
}

/** Apicurio's answer to a request without a bearer token (none, or another scheme) when authentication is on. */
export function notAuthenticated(): RegistryProblem {
  return new RegistryProblem(401, 'UnauthorizedException', 'User is not authenticated.')
}
