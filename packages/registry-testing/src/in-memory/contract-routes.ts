import { type Answer, jsonAnswer, noContent } from './answer.js'
import { resolveVersion } from './artifact-routes.js'
import { getAnswer, putAnswer, readRuleSet, type StoredRuleSet } from './contracts.js'
import { checkIdLengths, rawGroupId } from './params.js'
import type { RouteContext } from './route-context.js'

// The data-contract ruleset endpoints of Apicurio Registry 3.3: `/admin/contracts/ruleset`,
// `/groups/{g}/artifacts/{a}/contract/ruleset` and `/groups/{g}/artifacts/{a}/versions/{v}/contract/ruleset`.

function body(ctx: RouteContext): StoredRuleSet {
  let value: unknown
  try {
    value = ctx.body.trim() === '' ? null : JSON.parse(ctx.body)
  } catch {
    value = null
  }
  return readRuleSet(value)
}

function artifactOf(ctx: RouteContext): { groupId: string | null; artifactId: string } {
  checkIdLengths(ctx.params.groupId as string, ctx.params.artifactId as string)
  return { groupId: rawGroupId(ctx.params.groupId as string), artifactId: ctx.params.artifactId as string }
}

/** `GET /admin/contracts/ruleset` */
export function getGlobalRuleset(ctx: RouteContext): Answer {
  return jsonAnswer(getAnswer(ctx.storage.contracts.global()))
}

/** `PUT /admin/contracts/ruleset` */
export function putGlobalRuleset(ctx: RouteContext): Answer {
  const set = body(ctx)
  ctx.storage.contracts.setGlobal(set)
  return jsonAnswer(putAnswer(set))
}

/** `DELETE /admin/contracts/ruleset` */
export function deleteGlobalRuleset(ctx: RouteContext): Answer {
  ctx.storage.contracts.setGlobal(readRuleSet({}))
  return noContent()
}

/** `GET …/artifacts/{a}/contract/ruleset`: an empty ruleset for an artifact that does not exist, as in Apicurio 3.3. */
export function getArtifactRuleset(ctx: RouteContext): Answer {
  const { groupId, artifactId } = artifactOf(ctx)
  return jsonAnswer(getAnswer(ctx.storage.contracts.artifact(groupId, artifactId)))
}

/** `PUT …/artifacts/{a}/contract/ruleset`: stored even for an artifact id that does not exist, as in Apicurio 3.3. */
export function putArtifactRuleset(ctx: RouteContext): Answer {
  const { groupId, artifactId } = artifactOf(ctx)
  const set = body(ctx)
  ctx.storage.contracts.setArtifact(groupId, artifactId, set)
  return jsonAnswer(putAnswer(set))
}

/** `DELETE …/artifacts/{a}/contract/ruleset`: 204 whether or not there was one. */
export function deleteArtifactRuleset(ctx: RouteContext): Answer {
  const { groupId, artifactId } = artifactOf(ctx)
  ctx.storage.contracts.setArtifact(groupId, artifactId, readRuleSet({}))
  return noContent()
}

/** `GET …/versions/{v}/contract/ruleset`: 404 when the version does not exist. */
export function getVersionRuleset(ctx: RouteContext): Answer {
  const { version } = resolveVersion(ctx)
  return jsonAnswer(getAnswer(ctx.storage.contracts.version(version.globalId)))
}

/** `PUT …/versions/{v}/contract/ruleset`: 404 when the version does not exist. */
export function putVersionRuleset(ctx: RouteContext): Answer {
  const { version } = resolveVersion(ctx)
  const set = body(ctx)
  ctx.storage.contracts.setVersion(version.globalId, set)
  return jsonAnswer(putAnswer(set))
}

/** `DELETE …/versions/{v}/contract/ruleset`: 204 whether or not there was one; 404 when the version does not exist. */
export function deleteVersionRuleset(ctx: RouteContext): Answer {
  const { version } = resolveVersion(ctx)
  ctx.storage.contracts.setVersion(version.globalId, readRuleSet({}))
  return noContent()
}
