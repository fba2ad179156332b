import type { Ajv } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';

/** The `ajv-formats` plugin. */
export type FormatsPlugin = (ajv: Ajv | Ajv2020) => unknown;

/** The parts of ajv and ajv-formats that `createLinearTimeAjv` builds its engines from. */
export interface AjvModules {
  /** The draft-07 engine class (`ajv`). */
  readonly Ajv: typeof Ajv;
  /** The 2020-12 engine class (`ajv/dist/2020.js`). */
  readonly Ajv2020: typeof Ajv2020;
  /** `ajv-formats`. */
  readonly addFormats: FormatsPlugin;
}

/** ajv-formats is CommonJS: depending on the loader the plugin is the module or its `default`. */
export function formatsPluginOf(module: unknown): FormatsPlugin {
  return ((module as { default?: FormatsPlugin }).default ?? module) as FormatsPlugin;
}
