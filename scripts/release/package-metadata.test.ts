import { describe, expect, it } from 'vitest'
import { changelogProblems, metadataProblems, npxProblems } from './package-metadata.mjs'

const SHIPPED = ['package/package.json', 'package/README.md', 'package/CHANGELOG.md', 'package/dist/index.js']

describe('metadataProblems', () => {
  it('passes a manifest whose links are true or absent and a tarball with its CHANGELOG.md', () => {
    expect(metadataProblems({ name: '@x/errors', version: '0.2.0' }, SHIPPED)).toEqual([])
    expect(
      metadataProblems(
        {
          name: '@x/cli',
          repository: {
            type: 'git',
            url: 'git+https://github.com/acme/x-serde.git',
            directory: 'packages/cli',
          },
          homepage: 'https://acme.dev/x-serde',
          author: 'Ada <ada@acme.dev>',
          bin: { 'x-serde': './bin/x-serde.js' },
        },
        SHIPPED,
      ),
    ).toEqual([])
  })

  it('refuses the placeholder repository every package carried, and other reserved or fill-in links', () => {
    expect(
      metadataProblems(
        { name: '@x/serde', repository: { type: 'git', url: 'git+https://example.invalid/x-serde.git' } },
        SHIPPED,
      ),
    ).toEqual([
      'repository.url is a placeholder ("git+https://example.invalid/x-serde.git"): give the true value or leave it out',
    ])
    expect(
      metadataProblems(
        {
          name: '@x/serde',
          homepage: 'https://example.com/x',
          bugs: { url: 'http://localhost:3000/issues' },
          funding: 'https://github.com/your-org',
          author: 'TODO',
        },
        SHIPPED,
      ),
    ).toEqual([
      'homepage is a placeholder ("https://example.com/x"): give the true value or leave it out',
      'bugs.url is a placeholder ("http://localhost:3000/issues"): give the true value or leave it out',
      'author is a placeholder ("TODO"): give the true value or leave it out',
      'funding is a placeholder ("https://github.com/your-org"): give the true value or leave it out',
    ])
  })

  it('refuses a tarball without CHANGELOG.md, and a package with two commands (npx runs only a sole one)', () => {
    expect(
      metadataProblems({ name: '@x/cli', bin: { a: './a.js', b: './b.js' } }, ['package/package.json']),
    ).toEqual([
      'the tarball has no CHANGELOG.md: add "CHANGELOG.md" to the files of package.json',
      "bin names 2 commands (a, b): `npx @x/cli` runs a package's only command",
    ])
  })
})

describe('npxProblems', () => {
  const commands = new Map([
    ['x-serde', '@x/cli'],
    ['@x/cli', '@x/cli'],
  ])

  it('names each line that runs a command of ours with npx instead of its package', () => {
    expect(
      npxProblems(
        [
          {
            path: 'README.md',
            text: 'Install:\n\n    npx x-serde --help\n    npx --yes x-serde inspect 00\n',
          },
          { path: 'docs/cli.md', text: 'npx @x/cli --help, npx vitest run, npm exec x-serde' },
        ],
        commands,
      ),
    ).toEqual([
      'README.md:3: `npx x-serde` looks up a package of that name: write `npx @x/cli`',
      'README.md:4: `npx x-serde` looks up a package of that name: write `npx @x/cli`',
    ])
  })
})

describe('changelogProblems', () => {
  it("names changesets' commit hashes and Updated dependencies lines, and passes entries written for users", () => {
    expect(
      changelogProblems(
        '# @x/serde\n\n## 0.2.0\n\n### Patch Changes\n\n- 410bdf3: Comments.\n- Updated dependencies [92fed4e]\n  - @x/registry-testing@1.0.0\n',
      ),
    ).toEqual([
      'CHANGELOG.md:7: a commit hash before the entry',
      'CHANGELOG.md:8: "Updated dependencies": one "- Dependencies:" line names the versions',
    ])
    expect(
      changelogProblems(
        '# @x/serde\n\n## 0.2.1\n\n### Patch Changes\n\n- Reads faster.\n- Dependencies: @x/errors 0.3.0, @x/wire-format 0.2.1\n',
      ),
    ).toEqual([])
  })
})
