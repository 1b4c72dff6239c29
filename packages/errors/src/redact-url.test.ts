import { describe, expect, it } from 'vitest'
import { redactUrl } from './index.js'

describe('redactUrl', () => {
  it.each([
    [
      'https://user:p%40ss@registry.example:8443/apis/registry/v3',
      'https://registry.example:8443/apis/registry/v3',
    ],
    ['https://token@registry.example/apis', 'https://registry.example/apis'],
    [
      'http://127.0.0.1:8080/apis/registry/v3?access_token=abc#frag',
      'http://127.0.0.1:8080/apis/registry/v3',
    ],
    ['http://h/path#secret', 'http://h/path'],
    ['http://h/a%20b', 'http://h/a%20b'],
  ])('turns %s into %s', (input, expected) => {
    expect(redactUrl(input)).toBe(expected)
  })

  it('takes a URL object and leaves it unchanged', () => {
    const url = new URL('https://u:secret@h/x?q=1')
    expect(redactUrl(url)).toBe('https://h/x')
    expect(url.password).toBe('secret')
  })

  it('returns <invalid URL> for input that is not a URL, instead of echoing it', () => {
    expect(redactUrl('not a url with password hunter2')).toBe('<invalid URL>')
    expect(redactUrl('')).toBe('<invalid URL>')
  })
})
