import { AvroSerializer } from '@x/avro-serde'
import { RegistryClient } from '@x/registry-client'
import { MessageField, SerializationContext } from '@x/wire-format'
import type { BenchEnv } from '../cases.js'
import { EVENT_ARTIFACT, EVENT_RECORD, GROUP_ID } from '../fixtures.js'
import { PEER_TOPIC } from '../peer-cases.js'
import type { StartupTarget } from './measure.js'

/** The frame every start-up child decodes: `EVENT_RECORD` as our serializer writes it (the stub serves its id too). */
export async function startupTarget(env: Pick<BenchEnv, 'url' | 'confluentUrl'>): Promise<StartupTarget> {
  const client = new RegistryClient({ url: env.url, groupId: GROUP_ID })
  try {
    const serializer = new AvroSerializer(client, EVENT_ARTIFACT)
    const ctx = new SerializationContext(PEER_TOPIC, MessageField.VALUE)
    const frame = await serializer.serialize(EVENT_RECORD, ctx)
    return {
      url: env.url,
      groupId: GROUP_ID,
      confluentUrl: env.confluentUrl,
      topic: PEER_TOPIC,
      frame,
      expectedId: EVENT_RECORD.id,
    }
  } finally {
    await client.close()
  }
}
