#!/usr/bin/env node
import { processIo } from './io.js'
import { run } from './program.js'

// KafkaJS 2.2.4 schedules a timer with a negative delay while it waits for a request slot (tulios/kafkajs#1751);
// Node 22 and newer warn about each on stderr (TimeoutNegativeWarning). Node clamps the delay to 1 ms as before, so
// the warning says nothing to a user of this command: it is dropped, and every other warning printed as Node does.
const printWarning = process.listeners('warning')
process.removeAllListeners('warning')
process.on('warning', (warning) => {
  if (warning.name === 'TimeoutNegativeWarning') return
  for (const listener of printWarning) listener(warning)
})

process.exitCode = await run(process.argv.slice(2), processIo())
