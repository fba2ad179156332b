// Bundled by runtime-neutral.browser.test.ts to show that its check refuses Node built-ins: the
// confirmation package's JSON file store imports node:fs and is only on its `/node` subpath.
export { JsonFileAllowListStore } from '@toolhost/confirmation/node';
