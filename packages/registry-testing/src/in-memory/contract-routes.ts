import { type ExecuteMode, type ExecuteResult, type RuleSet, RulesEngine } from '@x/rules'
import { type Answer, jsonAnswer, noContent } from './answer.js'
import { resolveVersion } from './artifact-routes.js'
import { EMPTY_RULESET, getAnswer, putAnswer, readRuleSet, type StoredRuleSet } from './contracts.js'
import type { JsonText } from './json-text.js'
import { checkIdLengths, rawGroupId } from './params.js'
import { artifactNotFound, badRequest } from './problems.js'
import { type Json, parseBody, parseRecordBody } from './request-body.js'
import type { RouteContext } from './route-context.js'

// The data-contract ruleset endpoints of Apicurio Registry 3.3: `/admin/contracts/ruleset`,
// `/groups/{g}/artifacts/{a}/contract/ruleset` and `/groups/{g}/artifacts/{a}/versions/{v}/contract/ruleset`, and the
// execute and migrate endpoints, evaluated by `@x/rules`.

/**
 * The ruleset of a `PUT` body. A body that is not JSON, not a JSON object or empty is the registry's 400 (as for
 * every JSON body, see `parseBody`), as is a rule without a required field (see `readRuleSet`).
 */
function body(ctx: RouteContext): StoredRuleSet {
  return readRuleSet(parseBody(ctx.body))
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
  ctx.storage.contracts.setGlobal(EMPTY_RULESET)
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
  ctx.storage.contracts.setArtifact(groupId, artifactId, EMPTY_RULESET)
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
  ctx.storage.contracts.setVersion(version.globalId, EMPTY_RULESET)
  return noContent()
}

const engine = new RulesEngine()

function recordOf(body: Json, required: readonly string[]): Record<string, unknown> {
  for (const field of required) {
    if (body[field] === undefined || body[field] === null) {
      throw badRequest('BadRequestException', `${field} is required`)
    }
  }
  const record = body.record
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw badRequest('BadRequestException', 'record is required')
  }
  return record as Record<string, unknown>
}

function verdict(result: ExecuteResult): Answer {
  return jsonAnswer({
    passed: result.passed,
    transformedRecord: result.transformedRecord as JsonText | undefined,
    violations: result.violations.map((v) => ({
      ruleName: v.ruleName,
      message: v.message,
      action: v.action,
    })),
    executedRules: result.executedRules,
    failedRules: result.failedRules,
  })
}

/**
 * `POST …/versions/{v}/contract/execute` with `{ mode, record }`: the version's merged domain rules of that mode
 * (and `WRITEREAD`), run by `@x/rules`. Integers in the record are read exactly (beyond 2^53 as `bigint`s, written
 * back as exact digits) and a number with a fraction or an exponent (`5.0`) as a double (written back as `5.0`),
 * as the registry reads and writes them.
 */
export function executeRules(ctx: RouteContext): Answer {
  const { artifact, version } = resolveVersion(ctx)
  const body = parseRecordBody(ctx.body)
  const record = recordOf(body, ['mode'])
  const merged = ctx.storage.contracts.merged(artifact.groupId, artifact.artifactId, version.globalId)
  const result = engine.execute(engine.compile(merged as RuleSet), {
    mode: body.mode as ExecuteMode,
    record,
  })
  return verdict(result)
}

/**
 * `POST …/artifacts/{a}/contract/migrate` with `{ fromVersion, toVersion, record }`: the migration rules of each
 * version's own ruleset between the two, in the order the versions were created, run by `@x/rules` (integers read
 * exactly, as for execute). A version that
 * does not exist is a 400 (`Version not found: …`), an artifact that does not exist a 404, as in Apicurio 3.3.
 */
export function migrateRecord(ctx: RouteContext): Answer {
  const { groupId, artifactId } = artifactOf(ctx)
  const artifact = ctx.storage.artifact(groupId, artifactId)
  if (artifact === undefined) throw artifactNotFound(groupId, artifactId)
  const body = parseRecordBody(ctx.body)
  const record = recordOf(body, ['fromVersion', 'toVersion'])
  const chain = artifact.versions.map((stored) => ({
    version: stored.version,
    ruleSet: engine.compile(ctx.storage.contracts.version(stored.globalId) as RuleSet),
  }))
  for (const name of [body.fromVersion, body.toVersion]) {
    if (!chain.some((step) => step.version === String(name))) {
      throw badRequest('BadRequestException', `Version not found: ${String(name)}`)
    }
  }
  return verdict(
    engine.migrate(chain, {
      fromVersion: String(body.fromVersion),
      toVersion: String(body.toVersion),
      record,
    }),
  )
}
