// browser-test.mjs: the built site (.vitepress/dist) in a real browser: Debian's chromium (CHROMIUM, default
// /usr/bin/chromium, installed by scripts/docs/install-chromium.sh), driven by playwright-core (no browser download).
// Checks, each printed as `ok` or `FAIL`: every page loads without a console error, an uncaught exception or a failed
// request; every internal link of every page leads to a page that exists, and its anchor to an element of that
// page; the search finds an API name and leads to it; every `<<<` include of a page shows exactly its tested file.
// The last line is `N passed, N failed`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import { dirname, extname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const site = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(site, '.vitepress', 'dist')
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium'
if (!existsSync(join(dist, 'index.html'))) {
  console.error('browser-test: no built site in .vitepress/dist: run pnpm docs:build first')
  process.exit(2)
}
if (!existsSync(executablePath)) {
  console.error(
    `browser-test: no browser at ${executablePath}: run scripts/docs/install-chromium.sh (or set CHROMIUM)`,
  )
  process.exit(2)
}

const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
}
/** The file a URL path is served from, as a static host serves VitePress's output, or undefined. */
function fileOf(pathname) {
  const path = join(dist, decodeURIComponent(pathname))
  if (!path.startsWith(dist)) return undefined
  for (const candidate of [path, `${path}.html`, join(path, 'index.html')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return undefined
}
const server = createServer((request, response) => {
  const file = fileOf(new URL(request.url ?? '/', 'http://x').pathname)
  if (!file) {
    response.writeHead(404).end('not found')
    return
  }
  response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
  response.end(readFileSync(file))
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const origin = `http://127.0.0.1:${server.address().port}`

let passed = 0
let failed = 0
function check(name, problems) {
  if (problems.length === 0) {
    passed++
    console.log(`ok   ${name}`)
  } else {
    failed++
    console.log(`FAIL ${name}`)
    for (const p of problems.slice(0, 20)) console.log(`       ${p}`)
    if (problems.length > 20) console.log(`       … and ${problems.length - 20} more`)
  }
}

// The site's own pages: every .md of the site, as VitePress renders it (the API reference's HTML aside).
const pages = []
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    if (['node_modules', 'generated', 'snippets', 'scripts', 'public', '.vitepress'].includes(name)) continue
    if (statSync(path).isDirectory()) walk(path)
    else if (name.endsWith('.md')) pages.push(relative(site, path))
  }
}
walk(site)
const urlOf = (page) => `/${page.replace(/(^|\/)index\.md$/, '$1').replace(/\.md$/, '.html')}`

const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] })
const context = await browser.newContext()
const links = new Map() // href without origin → first page that has it
const htmlCache = new Map()
async function htmlOf(pathname) {
  if (!htmlCache.has(pathname)) {
    const answer = await fetch(`${origin}${pathname}`)
    htmlCache.set(pathname, answer.ok ? await answer.text() : undefined)
  }
  return htmlCache.get(pathname)
}

try {
  for (const page of pages) {
    const tab = await context.newPage()
    const problems = []
    tab.on('console', (m) => {
      // Chromium asks every new origin for /favicon.ico whatever the page's icon link says (the site's is an SVG).
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) {
        problems.push(`console error: ${m.text()} (${m.location().url})`)
      }
    })
    tab.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`))
    tab.on('response', (r) => {
      if (r.status() >= 400 && !r.url().endsWith('/favicon.ico'))
        problems.push(`${r.status()} for ${r.url()} (${r.request().resourceType()})`)
    })
    const answer = await tab.goto(`${origin}${urlOf(page)}`, { waitUntil: 'networkidle' })
    if (!answer?.ok()) problems.push(`answered ${answer?.status()}`)
    const title = await tab
      .locator('h1')
      .first()
      .textContent({ timeout: 5000 })
      .catch(() => '')
    if (!title?.trim()) problems.push('no h1: the page rendered nothing')
    for (const href of await tab.$$eval('a[href]', (as) => as.map((a) => a.href))) {
      if (href.startsWith(origin) && !links.has(href.slice(origin.length)))
        links.set(href.slice(origin.length), page)
    }
    check(`${page} loads without console errors, exceptions or failed requests`, problems)

    // Code from tested files: each `<<<` include shows the file exactly.
    const source = readFileSync(join(site, page), 'utf8')
    const includes = [...source.matchAll(/^<<< @\/([^\s{#]+)/gm)].map((m) => m[1])
    if (includes.length > 0) {
      const shown = await tab.$$eval('div[class*="language-"] pre code', (codes) =>
        codes.map((c) => c.textContent),
      )
      const missing = includes.filter((include) => {
        const text = readFileSync(join(site, include), 'utf8').replace(/\n$/, '')
        return !shown.some((code) => code?.replace(/\n$/, '') === text)
      })
      check(
        `${page} shows ${includes.join(', ')} exactly as tested`,
        missing.map((m) => `${m} is not shown as it is`),
      )
    }
    await tab.close()
  }

  // The figures: the reliability and speed page shows every table row of the files prepare.mjs generated from
  // BENCHMARKS.md and RELIABILITY.md.
  {
    const dir = join(site, 'generated')
    const expected = readdirSync(dir)
      .filter((name) => name.endsWith('.md'))
      .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
      .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line)).length
    const tab = await context.newPage()
    await tab.goto(`${origin}/reliability-and-speed.html`, { waitUntil: 'networkidle' })
    const shown = await tab.locator('.vp-doc table tr').count()
    const chart = await tab.locator('.vp-doc img[src$="chart.svg"]').evaluate((img) => img.naturalWidth > 0)
    await tab.close()
    check(
      `reliability-and-speed.md shows the ${expected} table rows generated from BENCHMARKS.md and RELIABILITY.md, and the chart`,
      [
        ...(shown === expected ? [] : [`${shown} table rows shown, ${expected} generated`]),
        ...(chart ? [] : ['the chart did not load']),
      ],
    )
  }

  // Internal links and their anchors.
  const broken = []
  for (const [href, page] of links) {
    const url = new URL(href, origin)
    const html = await htmlOf(url.pathname)
    if (html === undefined) {
      broken.push(`${page}: ${href} leads nowhere`)
      continue
    }
    const id = decodeURIComponent(url.hash.slice(1))
    if (id && !html.includes(`id="${id}"`)) broken.push(`${page}: ${href}: no element with id "${id}"`)
  }
  check(`every internal link (${links.size}) leads to a page and an anchor that exist`, broken)

  // Search: an API name, typed as a reader would, leads to the API reference page that names it.
  const tab = await context.newPage()
  const problems = []
  tab.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()} (${m.location().url})`)
  })
  await tab.goto(`${origin}/`, { waitUntil: 'networkidle' })
  await tab.locator('.VPNavBarSearch button').first().click()
  await tab.locator('.VPLocalSearchBox input').fill('InMemoryRegistry')
  const result = tab.locator('.VPLocalSearchBox a.result').first()
  await result
    .waitFor({ timeout: 10_000 })
    .catch(() => problems.push('the search found nothing for InMemoryRegistry'))
  if (problems.length === 0) {
    await result.click()
    await tab.waitForLoadState('networkidle')
    const id = decodeURIComponent(new URL(tab.url()).hash.slice(1))
    // the result is followed inside the page (no load): wait until the section it names is rendered
    await tab
      .waitForFunction((id) => document.getElementById(id) !== null, id, { timeout: 10_000 })
      .catch(() => {})
    // The section the result leads to (from its heading to the next) names it, linked to its reference page.
    const named = await tab.evaluate((id) => {
      let node = document.getElementById(id)?.nextElementSibling
      while (node && !/^H[12]$/.test(node.tagName)) {
        if ([...node.querySelectorAll('a')].some((a) => a.textContent === 'InMemoryRegistry')) return true
        node = node.nextElementSibling
      }
      return false
    }, id)
    if (!named)
      problems.push(`the first result led to ${tab.url()}, whose section does not link InMemoryRegistry`)
  }
  check('the search finds the API name InMemoryRegistry and leads to a page naming it', problems)
  await tab.close()
} finally {
  await browser.close()
  server.close()
}
console.log(`${passed} passed, ${failed} failed`)
process.exitCode = failed === 0 ? 0 : 1
