#!/usr/bin/env node
// The `toolhost` executable. It is committed (not built) so that pnpm can link it into
// node_modules/.bin when the workspace is installed, before `dist/` exists; the command itself is
// the built dist/bin.js.
import '../dist/bin.js';
