// How this package gets ajv in Node (`#load-ajv` with the `node` condition): required by the first
// engine, not when the package is imported. ajv and its helpers are about 95 CommonJS modules, and a
// host that never compiles a schema (no tool called yet, no structured output) needs none of them.
// `require` keeps this synchronous, as validation is.
import { createRequire } from 'node:module';
import { formatsPluginOf, type AjvModules } from './ajv-modules.js';

let modules: AjvModules | undefined;

/** ajv, ajv/dist/2020.js and ajv-formats, required on the first call. */
export function loadAjv(): AjvModules {
  if (modules === undefined) {
    // In the CommonJS build import.meta.url is the file's path (tsup.config.ts).
    const require = createRequire(import.meta.url);
    modules = {
      Ajv: (require('ajv') as Pick<AjvModules, 'Ajv'>).Ajv,
      Ajv2020: (require('ajv/dist/2020.js') as Pick<AjvModules, 'Ajv2020'>).Ajv2020,
      addFormats: formatsPluginOf(require('ajv-formats')),
    };
  }
  return modules;
}
