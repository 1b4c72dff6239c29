// What the integration global setups share: free ports on 127.0.0.1, running a tool to completion, stopping a server
// process, and the tail of its log for error messages.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address !== null ? done(address.port) : fail(new Error('no port')),
      )
    })
  })
}

export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms))
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
export async function stopProcess(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
  await exited
  clearTimeout(timer)
}

/** The last lines of a server's log, for an error message. */
export function logTail(file: string, lines = 40): string {
  if (!existsSync(file)) return `(no log at ${file})`
  return `--- last lines of ${file} ---\n${readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n')}`
}

/**
 * Runs a command to completion in `cwd`, killed after `timeoutMs`; resolves with its stdout, rejects with the tail of
 * its output. `label` prefixes the error message (`kafka: …`).
 */
export function runTool(
  label: string,
  cwd: string,
  command: string,
  args: string[],
  timeoutMs: number,
): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', (error) => {
      clearTimeout(timer)
      fail(new Error(`${label}: cannot run ${command} (${error.message}); is it installed and on PATH?`))
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (code === 0) return done(stdout)
      const why = signal ? `was killed (${signal}) after ${timeoutMs / 1000} s` : `exited with ${code}`
      const tail = `${stdout}${stderr}`.trim().split('\n').slice(-30).join('\n')
      fail(new Error(`${label}: ${command} ${args.slice(-4).join(' ')} ${why}\n${tail}`))
    })
  })
}
