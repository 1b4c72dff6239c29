import { type Answer, contentAnswer, jsonAnswer, noContent } from './answer.js'
import {
  artifactMetaData,
  artifactReference,
  groupMetaData,
  searchedArtifact,
  searchedVersion,
  versionMetaData,
} from './metadata.js'
import {
  booleanQuery,
  checkIdLengths,
  enumQuery,
  pagingQuery,
  parseVersionExpression,
  rawGroupId,
} from './params.js'
import {
  artifactNotFound,
  badRequest,
  branchTipNotFound,
  deletionNotEnabled,
  groupNotFound,
  versionNotFound,
} from './problems.js'
import { addVersion, createArtifact } from './registration.js'
import { parseBody, readArtifactRequest, readVersionRequest } from './request-body.js'
import { contentText, type HandleReferences, type RouteContext } from './route-context.js'
import type { StoredArtifact, StoredVersion } from './storage.js'

// The `/groups/...` endpoints of Apicurio Registry 3.3 that InMemoryRegistry serves.

const IF_EXISTS = ['FAIL', 'CREATE_VERSION', 'FIND_OR_CREATE_VERSION'] as const
const SORT_ORDER = ['asc', 'desc'] as const
const ARTIFACT_SORT = ['groupId', 'artifactId', 'createdOn', 'modifiedOn', 'artifactType', 'name'] as const
const VERSION_SORT = [
  'groupId',
  'artifactId',
  'version',
  'name',
  'createdOn',
  'modifiedOn',
  'globalId',
] as const
const REFERENCES = ['PRESERVE', 'DEREFERENCE', 'REWRITE'] as const
const REF_TYPES = ['OUTBOUND', 'INBOUND'] as const

/** `GET /groups/{groupId}` */
export function getGroup(ctx: RouteContext): Answer {
  const group = ctx.storage.group(ctx.params.groupId as string)
  if (group === undefined) throw groupNotFound(ctx.params.groupId as string)
  return jsonAnswer(groupMetaData(group))
}

/** `DELETE /groups/{groupId}` */
export function deleteGroup(ctx: RouteContext): Answer {
  if (!ctx.deletion.group) throw deletionNotEnabled('Group')
  const groupId = ctx.params.groupId as string
  if (ctx.storage.group(groupId) === undefined) throw groupNotFound(groupId)
  ctx.storage.deleteGroup(groupId)
  return noContent()
}

/** `POST /groups/{groupId}/artifacts` */
export function postArtifact(ctx: RouteContext): Answer {
  const options = {
    ifExists: enumQuery(ctx.query, 'ifExists', 'IfArtifactExists', IF_EXISTS) ?? 'FAIL',
    canonical: booleanQuery(ctx.query, 'canonical'),
    dryRun: booleanQuery(ctx.query, 'dryRun'),
  }
  const request = readArtifactRequest(parseBody(ctx.body))
  return jsonAnswer(createArtifact(ctx.storage, ctx.params.groupId as string, request, options))
}

/** `GET /groups/{groupId}/artifacts`: one page, ordered by `orderby` (default `name`, i.e. name or else id). */
export function listArtifacts(ctx: RouteContext): Answer {
  const order = enumQuery(ctx.query, 'order', 'SortOrder', SORT_ORDER) ?? 'asc'
  const orderby = enumQuery(ctx.query, 'orderby', 'ArtifactSortBy', ARTIFACT_SORT) ?? 'name'
  const offset = pagingQuery(ctx.query, 'offset', 0)
  const limit = pagingQuery(ctx.query, 'limit', 20)
  const all = ctx.storage.artifactsOf(rawGroupId(ctx.params.groupId as string))
  const key = (a: StoredArtifact): string => {
    if (orderby === 'name') return a.name ?? a.artifactId
    if (orderby === 'modifiedOn') return a.createdOn
    return a[orderby] ?? ''
  }
  const page = sortBy(all, key, order).slice(offset, offset + limit)
  const count = booleanQuery(ctx.query, 'skipCount') ? 0 : all.length
  return jsonAnswer({ artifacts: page.map(searchedArtifact), count })
}

/** `DELETE /groups/{groupId}/artifacts` */
export function deleteArtifacts(ctx: RouteContext): Answer {
  if (!ctx.deletion.artifact) throw deletionNotEnabled('Artifact')
  for (const artifact of ctx.storage.artifactsOf(rawGroupId(ctx.params.groupId as string))) {
    ctx.storage.deleteArtifact(artifact)
  }
  return noContent()
}

/** `GET /groups/{groupId}/artifacts/{artifactId}` */
export function getArtifact(ctx: RouteContext): Answer {
  return jsonAnswer(artifactMetaData(existingArtifact(ctx)))
}

/** `DELETE /groups/{groupId}/artifacts/{artifactId}` */
export function deleteArtifact(ctx: RouteContext): Answer {
  if (!ctx.deletion.artifact) throw deletionNotEnabled('Artifact')
  ctx.storage.deleteArtifact(existingArtifact(ctx))
  return noContent()
}

/** `GET /groups/{groupId}/artifacts/{artifactId}/versions` */
export function listVersions(ctx: RouteContext): Answer {
  const artifact = existingArtifact(ctx)
  const order = enumQuery(ctx.query, 'order', 'SortOrder', SORT_ORDER) ?? 'asc'
  const orderby = enumQuery(ctx.query, 'orderby', 'VersionSortBy', VERSION_SORT) ?? 'globalId'
  const offset = pagingQuery(ctx.query, 'offset', 0)
  const limit = pagingQuery(ctx.query, 'limit', 20)
  const key = (v: StoredVersion): string | bigint => {
    if (orderby === 'name') return v.name ?? v.version
    if (orderby === 'modifiedOn') return v.createdOn
    if (orderby === 'groupId') return v.groupId ?? ''
    return v[orderby]
  }
  const page = sortBy(artifact.versions, key, order).slice(offset, offset + limit)
  const count = booleanQuery(ctx.query, 'skipCount') ? 0 : artifact.versions.length
  return jsonAnswer({ count, versions: page.map(searchedVersion) })
}

/** `POST /groups/{groupId}/artifacts/{artifactId}/versions` */
export function postVersion(ctx: RouteContext): Answer {
  const dryRun = booleanQuery(ctx.query, 'dryRun')
  const request = readVersionRequest(parseBody(ctx.body), 'body')
  const version = addVersion(
    ctx.storage,
    existingArtifact(ctx),
    request,
    ctx.params.groupId as string,
    dryRun,
  )
  return jsonAnswer(versionMetaData(version))
}

/** `GET /groups/{groupId}/artifacts/{artifactId}/versions/{versionExpression}` */
export function getVersion(ctx: RouteContext): Answer {
  return jsonAnswer(versionMetaData(resolveVersion(ctx).version))
}

/** `DELETE /groups/{groupId}/artifacts/{artifactId}/versions/{versionExpression}` */
export function deleteVersion(ctx: RouteContext): Answer {
  if (!ctx.deletion.artifactVersion) throw deletionNotEnabled('Artifact version')
  const { artifact, version } = resolveVersion(ctx)
  ctx.storage.deleteVersion(artifact, version)
  return noContent()
}

/** `GET .../versions/{versionExpression}/content` (`references=PRESERVE|DEREFERENCE|REWRITE`) */
export function getVersionContent(ctx: RouteContext): Answer {
  const handling: HandleReferences | undefined = enumQuery(
    ctx.query,
    'references',
    'HandleReferencesType',
    REFERENCES,
  )
  const { version } = resolveVersion(ctx)
  const content = ctx.storage.contentById(version.contentId)
  // A disabled version keeps its metadata, but its content is not found, as in Apicurio.
  if (content === undefined || version.state === 'DISABLED') {
    throw versionNotFound(version.groupId, version.artifactId, version.version)
  }
  const text = contentText(ctx.storage, content, version.artifactType, handling)
  return contentAnswer(content, text, version.artifactId)
}

/** `GET .../versions/{versionExpression}/references` (`refType=OUTBOUND|INBOUND`) */
export function getVersionReferences(ctx: RouteContext): Answer {
  const refType = enumQuery(ctx.query, 'refType', 'io.apicurio.registry.types.ReferenceType', REF_TYPES)
  const expression = parseVersionExpression(ctx.params.version as string)
  if ('version' in expression) existingArtifact(ctx)
  const { version } = resolveVersion(ctx)
  const references =
    refType === 'INBOUND'
      ? ctx.storage.inboundReferences(version.groupId, version.artifactId, version.version)
      : (ctx.storage.contentById(version.contentId)?.references ?? [])
  return jsonAnswer(references.map(artifactReference))
}

const VERSION_STATES = ['ENABLED', 'DISABLED', 'DEPRECATED', 'DRAFT'] as const

/**
 * `GET /search/versions` with the filters tools use to name the artifact behind an id: `globalId`, `contentId`,
 * `groupId`, `artifactId` (all optional, combined), `offset`, `limit`; versions in globalId order.
 */
export function searchVersions(ctx: RouteContext): Answer {
  const offset = pagingQuery(ctx.query, 'offset', 0)
  const limit = pagingQuery(ctx.query, 'limit', 20)
  const globalId = ctx.query.get('globalId')
  const contentId = ctx.query.get('contentId')
  const groupId = ctx.query.get('groupId')
  const artifactId = ctx.query.get('artifactId')
  const found = ctx.storage.findVersions(
    (v) =>
      (globalId === null || v.globalId.toString() === globalId) &&
      (contentId === null || v.contentId.toString() === contentId) &&
      (groupId === null || v.groupId === rawGroupId(groupId)) &&
      (artifactId === null || v.artifactId === artifactId),
  )
  return jsonAnswer({
    count: found.length,
    versions: found.slice(offset, offset + limit).map(searchedVersion),
  })
}

/** `GET .../versions/{versionExpression}/state` */
export function getVersionState(ctx: RouteContext): Answer {
  return jsonAnswer({ state: resolveVersion(ctx).version.state })
}

/**
 * `PUT .../versions/{versionExpression}/state` with `{ state }`: 204. A `DISABLED` version drops out of
 * `branch=latest` and its content answers 404; `DEPRECATED` changes nothing else.
 */
export function putVersionState(ctx: RouteContext): Answer {
  const body = parseBody(ctx.body) as { state?: unknown }
  const state = body.state
  if (typeof state !== 'string' || !(VERSION_STATES as readonly string[]).includes(state)) {
    throw badRequest('BadRequestException', 'Not able to deserialize data provided.')
  }
  resolveVersion(ctx).version.state = state as StoredVersion['state']
  return noContent()
}

/** `GET /groups/{groupId}/artifacts/{artifactId}/branches`: the system-defined `latest` branch (the only one here). */
export function listBranches(ctx: RouteContext): Answer {
  const artifact = existingArtifact(ctx)
  const latest = {
    branchId: 'latest',
    createdOn: artifact.createdOn,
    owner: '',
    modifiedOn: artifact.versions.at(-1)?.createdOn ?? artifact.createdOn,
    modifiedBy: '',
    systemDefined: true,
  }
  return jsonAnswer({ branches: [latest], count: 1 })
}

function existingArtifact(ctx: RouteContext): StoredArtifact {
  checkIdLengths(ctx.params.groupId as string, ctx.params.artifactId as string)
  const groupId = rawGroupId(ctx.params.groupId as string)
  const artifactId = ctx.params.artifactId as string
  const artifact = ctx.storage.artifact(groupId, artifactId)
  if (artifact === undefined) throw artifactNotFound(groupId, artifactId)
  return artifact
}

/**
 * Resolves `{versionExpression}`: a literal version, or the tip of a branch (only `latest` exists here); 404 as
 * Apicurio when there is none.
 */
export function resolveVersion(ctx: RouteContext): { artifact: StoredArtifact; version: StoredVersion } {
  checkIdLengths(ctx.params.groupId as string, ctx.params.artifactId as string)
  const groupId = rawGroupId(ctx.params.groupId as string)
  const artifactId = ctx.params.artifactId as string
  const expression = parseVersionExpression(ctx.params.version as string)
  const artifact = ctx.storage.artifact(groupId, artifactId)
  const version =
    'branch' in expression
      ? expression.branch === 'latest'
        ? latestEnabled(artifact)
        : undefined
      : artifact?.versions.find((v) => v.version === expression.version)
  if (artifact === undefined || version === undefined) {
    if ('branch' in expression) throw branchTipNotFound(groupId, artifactId, expression.branch)
    throw versionNotFound(groupId, artifactId, expression.version)
  }
  return { artifact, version }
}

/** The tip of `latest`: the newest version that is not disabled. */
function latestEnabled(artifact: StoredArtifact | undefined): StoredVersion | undefined {
  const versions = artifact?.versions ?? []
  for (let i = versions.length - 1; i >= 0; i--) {
    if (versions[i]!.state !== 'DISABLED') return versions[i]
  }
  return undefined
}

/** Sorts by `key`, ties in creation order; `desc` is the exact reverse (so ties come newest first). */
function sortBy<T>(items: readonly T[], key: (item: T) => string | bigint, order: 'asc' | 'desc'): T[] {
  const sorted = items
    .map((item, index) => ({ item, index, key: key(item) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index))
    .map(({ item }) => item)
  return order === 'desc' ? sorted.reverse() : sorted
}
