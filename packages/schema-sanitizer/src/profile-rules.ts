import { GEMINI_RULES, rewriteNullableType } from './gemini-rules.js';
import { OPENAI_STRICT_RULES } from './openai-strict-rules.js';
import type { ProfileRules } from './profile-rule-types.js';
import type { SchemaProfile } from './schema-profile.js';

const ANTHROPIC: ProfileRules = {
  inlineRefs: false,
  nullableOptionals: false,
  keyword: () => true,
  booleanSchema: (value) => value,
};

const GEMINI_JSON_SCHEMA: ProfileRules = {
  inlineRefs: false,
  nullableOptionals: false,
  keyword: () => true,
  booleanSchema: (value) => value,
  finish: (out) => rewriteNullableType(out),
};

/** The rules of every profile that walks schemas (`none` copies and has no rules). */
export const PROFILE_RULES: Readonly<Record<Exclude<SchemaProfile, 'none'>, ProfileRules>> = {
  gemini: GEMINI_RULES,
  'gemini-json-schema': GEMINI_JSON_SCHEMA,
  'openai-strict': OPENAI_STRICT_RULES,
  anthropic: ANTHROPIC,
};
