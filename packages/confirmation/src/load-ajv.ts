// How this package gets ajv in bundles (`#load-ajv` under the `module` condition, which bundlers set
// and Node does not) and in runtimes other than Node: imported with the package. A bundler must see
// the imports to put ajv in the bundle, and outside Node nothing can load a module synchronously
// later, as validation needs.
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { formatsPluginOf, type AjvModules } from './ajv-modules.js';

const modules: AjvModules = { Ajv, Ajv2020, addFormats: formatsPluginOf(addFormatsModule) };

/** ajv, ajv/dist/2020.js and ajv-formats. */
export function loadAjv(): AjvModules {
  return modules;
}
