#!/usr/bin/env node
// The `x-serde` command. A committed launcher rather than the bundled dist/bin.bundle.js itself, so that the bin exists when pnpm links
// it into the workspace, before anything is built.
import '../dist/bin.bundle.js'
