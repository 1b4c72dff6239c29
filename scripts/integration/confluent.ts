import type { TestProject } from 'vitest/node'
import { ensureConfluentClient } from './confluent-client.js'

// Global setup of the integration stage: Confluent's `@confluentinc/kafka-javascript` for the Node running the tests,
// from its cache (or built into it once: see confluent-client.ts), handed to the tests as `inject('confluentClient')`,
// the directory of the package (load it with `createRequire(import.meta.url)(inject('confluentClient'))`).
export default async function setup(project: TestProject): Promise<void> {
  const install = await ensureConfluentClient((line) => process.stdout.write(`${line}\n`))
  if (install.source === 'cached') process.stdout.write(`confluent: client cached in ${install.dir}\n`)
  project.provide('confluentClient', `${install.dir}/node_modules/@confluentinc/kafka-javascript`)
}
