// Public API of @toolhost/schema-sanitizer.
export { generateValidName, MAX_TOOL_NAME_LENGTH } from './generate-valid-name.js';
