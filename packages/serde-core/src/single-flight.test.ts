import { describe, expect, it } from 'vitest'
import { SingleFlight } from './single-flight.js'

describe('SingleFlight', () => {
  it('shares one load among concurrent callers of a key, and starts another for another key', async () => {
    const flights = new SingleFlight<string, number>()
    let loads = 0
    const load = async () => {
      loads += 1
      return loads
    }
    const [a, b, c] = await Promise.all([
      flights.run('k', load),
      flights.run('k', load),
      flights.run('j', load),
    ])
    expect([a, b, c]).toEqual([1, 1, 2])
    expect(flights.size).toBe(0)
  })

  it('forgets a failed load, so the next caller tries again', async () => {
    const flights = new SingleFlight<string, string>()
    await expect(flights.run('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down')
    expect(flights.size).toBe(0)
    await expect(flights.run('k', async () => 'up')).resolves.toBe('up')
  })
})
