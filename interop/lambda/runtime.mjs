// A Lambda-like Node runtime for one invocation, in a process of its own (forked with advanced serialization):
// imports `<dir>/index.mjs` as Lambda's Node runtime imports an ES module handler, waits for the event from the
// parent, calls `handler(event, context)` once, and sends back the result or the error, with what the process
// spent (CPU, wall time from its start, peak RSS), then exits.
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'

const dir = process.argv[2]
const started = performance.timeOrigin
const event = await new Promise((resolve) => process.once('message', resolve))
const context = {
  awsRequestId: `local-${process.pid}`,
  functionName: 'x-serde-interop',
  getRemainingTimeInMillis: () => 30_000,
}
let outcome
try {
  const { handler } = await import(pathToFileURL(`${dir}/index.mjs`).href)
  outcome = { result: await handler(event, context) }
} catch (error) {
  // Where a serde error says the failed record was read (failedMessageOf of @x/errors: its own fields).
  const failed = error?.payload instanceof Uint8Array ? error : undefined
  outcome = {
    error: {
      name: error?.name,
      code: error?.code,
      message: String(error?.message),
      failed:
        failed === undefined
          ? undefined
          : { topic: failed.context?.topic, partition: failed.partition, offset: failed.offset },
    },
  }
}
const usage = process.resourceUsage()
outcome.process = {
  cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
  wallMs: Date.now() - started,
  peakRssKb: usage.maxRSS,
}
process.send(outcome, () => process.exit(0))
