import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'
import { startKafkaBroker } from './kafka-broker.js'

// Global setup of the integration stage: a real Kafka broker (3.9, KRaft, one node acting as broker and controller)
// run from Maven Central jars on 127.0.0.1 (kafka-broker.ts), handed to the tests as `inject('kafkaBrokers')`. With
// X_SERDE_TEST_KAFKA_BROKERS set, that broker is used instead and nothing is started (KAFKA_BROKERS, which the kafka
// example reads, is never read here).

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: read by vitest's global setup, which runs outside any turbo task
  const external = process.env.X_SERDE_TEST_KAFKA_BROKERS
  if (external) {
    console.log(`kafka: using the broker at ${external} (X_SERDE_TEST_KAFKA_BROKERS); starting none`)
    project.provide('kafkaBrokers', external)
    return undefined
  }
  const started = Date.now()
  const broker = await startKafkaBroker({ logFile: join(repo, '.it', 'kafka.log') })
  process.stdout.write(
    `kafka: broker ${broker.brokers} ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  )
  project.provide('kafkaBrokers', broker.brokers)
  return () => broker.stop()
}
