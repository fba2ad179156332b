#!/usr/bin/env node
// The `toolhost` executable: runs the command line and sets the exit code.
import { runCli } from './run-cli.js';

void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
