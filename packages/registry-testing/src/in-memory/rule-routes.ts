import { type Answer, jsonAnswer, noContent } from './answer.js'
import { rawGroupId } from './params.js'
import { artifactNotFound, badRequest, groupNotFound } from './problems.js'
import { parseBody } from './request-body.js'
import type { RouteContext } from './route-context.js'
import { type RuleScope, ruleNotFound, ruleTypeOf } from './rules.js'

// The rules endpoints of Apicurio Registry 3.3: `/admin/rules`, `/groups/{g}/rules`, `/groups/{g}/artifacts/{a}/rules`.

/** The scope a rules path names; a group or artifact that does not exist is a 404, as in Apicurio. */
function scopeOf(ctx: RouteContext): RuleScope {
  const groupParam = ctx.params.groupId
  if (groupParam === undefined) return { kind: 'global' }
  const groupId = rawGroupId(groupParam)
  const artifactId = ctx.params.artifactId
  if (artifactId === undefined) {
    if (groupId !== null && ctx.storage.group(groupId) === undefined) throw groupNotFound(groupParam)
    return { kind: 'group', groupId }
  }
  if (ctx.storage.artifact(groupId, artifactId) === undefined) throw artifactNotFound(groupId, artifactId)
  return { kind: 'artifact', groupId, artifactId }
}

function configOf(body: unknown): string {
  const config = (body as { config?: unknown } | null)?.config
  if (typeof config !== 'string')
    throw badRequest('BadRequestException', 'Not able to deserialize data provided.')
  return config
}

/** `GET …/rules`: the rule types set at this scope. */
export function listRules(ctx: RouteContext): Answer {
  return jsonAnswer(ctx.storage.rules.list(scopeOf(ctx)))
}

/** `POST …/rules` with `{ ruleType, config }`: 204, or 409 when the scope has that rule already. */
export function createRule(ctx: RouteContext): Answer {
  const scope = scopeOf(ctx)
  const body = parseBody(ctx.body) as { ruleType?: unknown } | null
  const type = ruleTypeOf(body?.ruleType)
  ctx.storage.rules.create(scope, type, configOf(body))
  return noContent()
}

/** `DELETE …/rules`: every rule of this scope. */
export function deleteRules(ctx: RouteContext): Answer {
  ctx.storage.rules.deleteAll(scopeOf(ctx))
  return noContent()
}

/** `GET …/rules/{ruleType}` */
export function getRule(ctx: RouteContext): Answer {
  const type = ruleTypeOf(ctx.params.ruleType)
  const config = ctx.storage.rules.get(scopeOf(ctx), type)
  if (config === undefined) throw ruleNotFound(type)
  return jsonAnswer({ config, ruleType: type })
}

/** `PUT …/rules/{ruleType}` with `{ config }`: the updated rule. */
export function updateRule(ctx: RouteContext): Answer {
  const type = ruleTypeOf(ctx.params.ruleType)
  const scope = scopeOf(ctx)
  const config = configOf(parseBody(ctx.body))
  ctx.storage.rules.update(scope, type, config)
  return jsonAnswer({ config, ruleType: type })
}

/** `DELETE …/rules/{ruleType}` */
export function deleteRule(ctx: RouteContext): Answer {
  ctx.storage.rules.delete(scopeOf(ctx), ruleTypeOf(ctx.params.ruleType))
  return noContent()
}
