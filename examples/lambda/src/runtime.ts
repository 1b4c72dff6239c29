// A stand-in for Lambda's Node runtime, for running the function locally: in a fresh process, imports index.js as
// Lambda does, waits for one event from the parent process, invokes the handler with it and sends back the answer.
const { handler } = await import('./index.js')
const event = await new Promise((resolve) => process.once('message', resolve))
const answer = await handler(event as never, {}).then(
  (result) => ({ result }),
  (error: unknown) => ({ error: String(error) }),
)
process.send?.(answer, () => process.exit(0))
