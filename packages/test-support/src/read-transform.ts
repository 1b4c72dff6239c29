import type { RegistryClient } from '@x/registry-client'
import type { SerializationContext } from '@x/wire-format'
import { domainRules, jsonataTransform } from './rulesets.js'

/** The serdes of one format, as {@link readThroughTransform} makes them. */
export interface TransformSerdes {
  serializer(
    client: RegistryClient,
    artifactId: string,
  ): {
    serialize(value: unknown, ctx: SerializationContext): Promise<Uint8Array>
  }
  deserializer(
    client: RegistryClient,
    options: Record<string, unknown>,
  ): {
    deserialize(bytes: Uint8Array, ctx: SerializationContext): Promise<unknown>
    deserializeSync(bytes: Uint8Array, ctx: SerializationContext): unknown
  }
}

/**
 * Sets `artifactId`'s ruleset to one `READ` JSONata transform `expr`, writes `value` without rules and reads it
 * back twice: with `options` alone (`plain`) and with rules on too (`ruled`, and `sync()` the same through
 * `deserializeSync`).
 */
export async function readThroughTransform(
  serdes: TransformSerdes,
  client: RegistryClient,
  at: { artifactId: string; ctx: SerializationContext },
  value: unknown,
  expr: string,
  options: Record<string, unknown> = {},
) {
  await client.setArtifactRuleset(at.artifactId, domainRules(jsonataTransform('mask', 'READ', expr)))
  const bytes = await serdes.serializer(client, at.artifactId).serialize(value, at.ctx)
  const plain = await serdes.deserializer(client, options).deserialize(bytes, at.ctx)
  const deserializer = serdes.deserializer(client, { ...options, rules: { enabled: true } })
  return {
    plain: plain as Record<string, unknown>,
    ruled: (await deserializer.deserialize(bytes, at.ctx)) as Record<string, unknown>,
    sync: () => deserializer.deserializeSync(bytes, at.ctx),
  }
}
