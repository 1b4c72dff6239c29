import {
  isSerdeError,
  RegistryConnectionError,
  SchemaNotFoundError,
  type SchemaNotFoundErrorOptions,
  SchemaRegistrationError,
} from '@x/errors'
import { describeStatus, type RegistryAnswer, RegistryFailureCause } from './registry-http.js'

/** Where the client talks to: the redacted base URL for messages, the real one for the path hint. */
export interface RegistryPlace {
  /** The base URL without credentials, as errors show it. */
  url: string
  /** True when the base URL ends in `/apis/registry/v3`. */
  looksLikeV3Root: boolean
}

function describeSubject(notFound: SchemaNotFoundErrorOptions): string {
  if (notFound.idType !== undefined) return `${notFound.idType} ${String(notFound.idValue)}`
  if (notFound.artifactId === undefined) return `group '${notFound.groupId}'`
  const version = notFound.version === undefined ? '' : ` version '${notFound.version}'`
  return `artifact '${notFound.artifactId}'${version} in group '${notFound.groupId}'`
}

/**
 * The error of a lookup answered with an error status (after retries and the auth repeat): 404 →
 * `SchemaNotFoundError` with what was looked for; anything else → `RegistryConnectionError` with the status. The
 * message holds the ProblemDetails title, never the body.
 */
export function lookupFailure(
  place: RegistryPlace,
  answer: RegistryAnswer,
  notFound: SchemaNotFoundErrorOptions,
  what: string,
): SchemaNotFoundError | RegistryConnectionError {
  const cause = new RegistryFailureCause(describeStatus(answer), { status: answer.status })
  if (answer.status === 404) {
    const hint = place.looksLikeV3Root
      ? ''
      : '. Is url the v3 API root (it usually ends in /apis/registry/v3)?'
    return new SchemaNotFoundError(
      `Schema not found: ${describeSubject(notFound)} (the registry at ${place.url} answered ${describeStatus(answer)})${hint}`,
      {
        ...notFound,
        url: place.url,
        status: 404,
        cause,
      },
    )
  }
  return new RegistryConnectionError(
    `The registry at ${place.url} answered ${describeStatus(answer)} when asked for ${what}`,
    {
      url: place.url,
      status: answer.status,
      cause,
    },
  )
}

/** A 200 lookup answer that cannot be used: `RegistryConnectionError` with status 200. */
export function unusableLookup(place: RegistryPlace, problem: string): RegistryConnectionError {
  return new RegistryConnectionError(
    `The registry at ${place.url} answered HTTP 200 with an unusable body: ${problem}`,
    {
      url: place.url,
      status: 200,
      cause: new RegistryFailureCause(problem, { status: 200 }),
    },
  )
}

/** A registration the registry refused (an error status other than those retried or 401/403). */
export function registrationRefused(
  place: RegistryPlace,
  answer: RegistryAnswer,
  groupId: string,
  artifactId: string,
): SchemaRegistrationError {
  return new SchemaRegistrationError(
    `The registry at ${place.url} refused to register artifact '${artifactId}' in group '${groupId}': ${describeStatus(answer)}`,
    {
      artifactId,
      groupId,
      url: place.url,
      status: answer.status,
      cause: new RegistryFailureCause(describeStatus(answer), { status: answer.status }),
    },
  )
}

/** A registration answered with a success status but without usable ids. */
export function registrationUnusable(
  place: RegistryPlace,
  answer: RegistryAnswer,
  groupId: string,
  artifactId: string,
  problem: string,
): SchemaRegistrationError {
  return new SchemaRegistrationError(
    `The registry at ${place.url} answered the registration of artifact '${artifactId}' with HTTP ${answer.status} but no usable ids: ${problem}`,
    {
      artifactId,
      groupId,
      url: place.url,
      status: answer.status,
      cause: new RegistryFailureCause(problem, { status: answer.status }),
    },
  )
}

/**
 * Whether an error means the registry could not be reached or could not answer (a transport failure, a timeout,
 * retries used up on 429/5xx, another 5xx): the errors for which an expired "latest" entry is served stale.
 * A 404 (the artifact is gone), a refused credential or an unusable 200 answer are not outages and reach the caller.
 */
export function isRegistryUnreachable(error: unknown): boolean {
  if (!isSerdeError(error, 'REGISTRY_CONNECTION')) return false
  const status = (error as RegistryConnectionError).status
  return status === undefined || status === 429 || status >= 500
}
