import { type Answer, contentAnswer, jsonAnswer } from './answer.js'
import { artifactReference } from './metadata.js'
import { booleanQuery, enumQuery, longPath } from './params.js'
import { artifactNotFound, contentHashNotFound, contentIdNotFound, globalIdNotFound } from './problems.js'
import { contentText, type HandleReferences, type RouteContext } from './route-context.js'
import type { StoredContent, StoredVersion } from './storage.js'

// The `/ids/...` and `/system/info` endpoints of Apicurio Registry 3.3 that InMemoryRegistry serves.

const REFERENCES = ['PRESERVE', 'DEREFERENCE', 'REWRITE'] as const
const REF_TYPES = ['OUTBOUND', 'INBOUND'] as const

/** `GET /system/info` */
export function getSystemInfo(ctx: RouteContext): Answer {
  return jsonAnswer({
    name: 'Apicurio Registry (InMemoryRegistry)',
    description: 'High performance, runtime registry for schemas and API designs.',
    version: '3.3.3',
    builtOn: ctx.startedOn,
  })
}

/** `GET /ids/globalIds/{globalId}` (`references=`, `returnArtifactType=`) */
export function getByGlobalId(ctx: RouteContext): Answer {
  const handling: HandleReferences | undefined = enumQuery(
    ctx.query,
    'references',
    'HandleReferencesType',
    REFERENCES,
  )
  const { version, content } = versionOf(ctx)
  const text = contentText(ctx.storage, content, version.artifactType, handling)
  const answer = contentAnswer(content, text, version.globalId.toString())
  if (!booleanQuery(ctx.query, 'returnArtifactType')) return answer
  return { ...answer, headers: { ...answer.headers, 'X-Registry-ArtifactType': version.artifactType } }
}

/** `GET /ids/globalIds/{globalId}/references` (`refType=OUTBOUND|INBOUND`) */
export function getGlobalIdReferences(ctx: RouteContext): Answer {
  const refType = enumQuery(ctx.query, 'refType', 'io.apicurio.registry.types.ReferenceType', REF_TYPES)
  const globalId = longPath('globalId', ctx.params.globalId as string)
  const version = ctx.storage.versionByGlobalId(globalId)
  // Apicurio 3.3 answers a missing globalId here with an odd artifact-not-found; so does InMemoryRegistry.
  if (version === undefined) throw artifactNotFound(null, `gid-${globalId}`)
  const references =
    refType === 'INBOUND'
      ? ctx.storage.inboundReferences(version.groupId, version.artifactId, version.version)
      : (ctx.storage.contentById(version.contentId)?.references ?? [])
  return jsonAnswer(references.map(artifactReference))
}

/** `GET /ids/contentIds/{contentId}` */
export function getByContentId(ctx: RouteContext): Answer {
  const content = contentById(ctx)
  return contentAnswer(content, content.text, content.contentId.toString())
}

/** `GET /ids/contentIds/{contentId}/references` */
export function getContentIdReferences(ctx: RouteContext): Answer {
  return jsonAnswer(contentById(ctx).references.map(artifactReference))
}

/** `GET /ids/contentHashes/{contentHash}` */
export function getByContentHash(ctx: RouteContext): Answer {
  const content = contentByHash(ctx)
  return contentAnswer(content, content.text, ctx.params.contentHash as string)
}

/** `GET /ids/contentHashes/{contentHash}/references` */
export function getContentHashReferences(ctx: RouteContext): Answer {
  return jsonAnswer(contentByHash(ctx).references.map(artifactReference))
}

function versionOf(ctx: RouteContext): { version: StoredVersion; content: StoredContent } {
  const globalId = longPath('globalId', ctx.params.globalId as string)
  const version = ctx.storage.versionByGlobalId(globalId)
  const content = version === undefined ? undefined : ctx.storage.contentById(version.contentId)
  if (version === undefined || content === undefined) throw globalIdNotFound(globalId.toString())
  // Apicurio 3.3 answers the globalId of a disabled version with this odd artifact-not-found.
  if (version.state === 'DISABLED') throw artifactNotFound(null, globalId.toString())
  return { version, content }
}

function contentById(ctx: RouteContext): StoredContent {
  const contentId = longPath('contentId', ctx.params.contentId as string)
  const content = ctx.storage.contentById(contentId)
  if (content === undefined) throw contentIdNotFound(contentId.toString())
  return content
}

function contentByHash(ctx: RouteContext): StoredContent {
  const hash = ctx.params.contentHash as string
  const content = ctx.storage.contentByHash(hash)
  if (content === undefined) throw contentHashNotFound(hash)
  return content
}
