import type { IdType, SchemaId } from '@x/wire-format'
import type { RegistryRequest } from './registry-http.js'
import type { RequestFacts } from './telemetry.js'
import type { ArtifactReference, IfExists } from './types.js'

/** The version expression of the newest version. */
export const LATEST = 'branch=latest'

/** Artifacts asked for per page of `listArtifacts`. */
export const PAGE_SIZE = 100

const ID_SEGMENT: Record<IdType, string> = { globalId: 'globalIds', contentId: 'contentIds' }

/** A version expression as a path segment: `branch=<id>` keeps its `=`, anything else is percent-encoded. */
function versionSegment(version: string): string {
  return version.startsWith('branch=')
    ? `branch=${encodeURIComponent(version.slice('branch='.length))}`
    : encodeURIComponent(version)
}

/** A header value the Fetch API accepts: printable ASCII as is, anything else percent-encoded. */
function headerSafe(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : encodeURIComponent(value)
}

function get(path: string, facts: RequestFacts): RegistryRequest {
  return { method: 'GET', path, facts, retry: 'always' }
}

const ID_ATTRIBUTE: Record<IdType, string> = {
  globalId: 'apicurio.globalId',
  contentId: 'apicurio.contentId',
}

function idFacts(idType: IdType, id: SchemaId, route: string): RequestFacts {
  return { method: 'GET', route, attributes: { [ID_ATTRIBUTE[idType]]: String(id) } }
}

/** `GET /groups/{g}/artifacts/{a}/versions/{version}`: the version's metadata, with its ids. */
export function versionMetadataRequest(
  groupId: string,
  artifactId: string,
  version: string,
): RegistryRequest {
  const group = encodeURIComponent(groupId)
  return get(
    `/groups/${group}/artifacts/${encodeURIComponent(artifactId)}/versions/${versionSegment(version)}`,
    {
      method: 'GET',
      route: '/groups/{groupId}/artifacts/{artifactId}/versions/{versionExpression}',
      attributes: {
        'apicurio.groupId': groupId,
        'apicurio.artifactId': artifactId,
        'apicurio.version': version,
      },
    },
  )
}

/**
 * `GET /ids/{globalIds|contentIds}/{id}`: the content. `headers`: the usage-telemetry headers, when the client has a
 * `clientId` (the registry counts these requests, and not the references ones).
 */
export function contentRequest(
  idType: IdType,
  id: SchemaId,
  headers?: Readonly<Record<string, string>>,
): RegistryRequest {
  // By globalId, `returnArtifactType=true` (Apicurio 3.0.4 and newer; older versions ignore it) adds
  // `X-Registry-ArtifactType`, so that one lookup tells a reader of any format which format the schema is. A
  // contentId has no such parameter: one content may be shared by versions of several artifacts.
  const query = idType === 'globalId' ? '?returnArtifactType=true' : ''
  const request = get(
    `/ids/${ID_SEGMENT[idType]}/${String(id)}${query}`,
    idFacts(idType, id, `/ids/${ID_SEGMENT[idType]}/{${idType}}`),
  )
  if (headers !== undefined) request.headers = headers
  return request
}

/** `GET /ids/{globalIds|contentIds}/{id}/references`. */
export function referencesRequest(idType: IdType, id: SchemaId): RegistryRequest {
  return get(
    `/ids/${ID_SEGMENT[idType]}/${String(id)}/references`,
    idFacts(idType, id, `/ids/${ID_SEGMENT[idType]}/{${idType}}/references`),
  )
}

/** `GET /search/versions?{globalId|contentId}={id}&limit=1`: a version that has this id (its coordinates). */
export function versionOfIdRequest(idType: IdType, id: SchemaId): RegistryRequest {
  return get(`/search/versions?${idType}=${String(id)}&limit=1`, idFacts(idType, id, '/search/versions'))
}

/** `GET /groups/{g}/artifacts?offset=…&limit=…`, in a stable order so that pages do not overlap. */
export function artifactPageRequest(groupId: string, offset: number): RegistryRequest {
  const query = `offset=${offset}&limit=${PAGE_SIZE}&orderby=artifactId&order=asc`
  return get(`/groups/${encodeURIComponent(groupId)}/artifacts?${query}`, {
    method: 'GET',
    route: '/groups/{groupId}/artifacts',
    attributes: { 'apicurio.groupId': groupId },
  })
}

/** What a registration sends. */
export interface Registration {
  groupId: string
  artifactId: string
  content: string
  references: readonly ArtifactReference[]
  ifExists: IfExists
  canonical: boolean
  artifactType: string
  contentType: string
}

/**
 * `POST /groups/{g}/artifacts?ifExists=…[&canonical=true]` with the v3 `CreateArtifact` body and the `X-Registry-*`
 * headers of the specification (v3 ignores them). Repeated after an ambiguous failure only with
 * `FIND_OR_CREATE_VERSION`, where a repeat finds what the first try created.
 */
export function registrationRequest(registration: Registration): RegistryRequest {
  const { groupId, artifactId, content, references, ifExists, canonical, artifactType, contentType } =
    registration
  return {
    method: 'POST',
    path: `/groups/${encodeURIComponent(groupId)}/artifacts?ifExists=${ifExists}${canonical ? '&canonical=true' : ''}`,
    facts: {
      method: 'POST',
      route: '/groups/{groupId}/artifacts',
      attributes: {
        'apicurio.groupId': groupId,
        'apicurio.artifactId': artifactId,
        'apicurio.artifactType': artifactType,
      },
    },
    headers: {
      'Content-Type': 'application/json',
      'X-Registry-ArtifactId': headerSafe(artifactId),
      'X-Registry-ArtifactType': headerSafe(artifactType),
    },
    body: JSON.stringify({
      artifactId,
      artifactType,
      firstVersion: { content: { content, contentType, references } },
    }),
    retry: ifExists === 'FIND_OR_CREATE_VERSION' ? 'always' : 'unsent-only',
  }
}
