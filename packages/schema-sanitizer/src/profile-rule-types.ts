// Apart from profile-rules.ts, which imports the rule sets: the rule sets import these types (no import cycle).
import type { SchemaDropReason } from './schema-profile.js';

/** How a schema node must be made nullable (only `openai-strict` makes optional properties nullable). */
export type NullableStrategy = 'type' | 'anyOf' | 'wrap';

/** What the walker tells a profile when a schema node is done. */
export interface FinishInfo {
  /** Property names kept in `properties`, in order; `undefined` when the node has no `properties`. */
  readonly propertyKeys: readonly string[] | undefined;
  /** Set when the node must accept `null` (an optional property in `openai-strict`). */
  readonly nullable: NullableStrategy | undefined;
  /** Report a dropped or rewritten keyword of this node. */
  report(keyword: string, reason: SchemaDropReason): void;
}

/** The per-profile decisions the walker asks for. */
export interface ProfileRules {
  /** Inline local `$ref`s (bounded) instead of keeping them. */
  readonly inlineRefs: boolean;
  /** Make properties that are not `required` nullable and list every property in `required`. */
  readonly nullableOptionals: boolean;
  /** `true` to keep the keyword, a reason to drop it and report, `null` to drop it silently. */
  keyword(keyword: string, node: Record<string, unknown>, value: unknown): true | SchemaDropReason | null;
  /** What a boolean schema becomes; `undefined` removes the slot. */
  booleanSchema(value: boolean): boolean | Record<string, unknown> | undefined;
  /** Rewrite a node before its keywords are walked (shallow; never mutates `node`). */
  prepare?(node: Record<string, unknown>, root: unknown, report: FinishInfo['report']): Record<string, unknown>;
  /** Adjust the output node after its own keywords were copied (children may not be filled yet). */
  finish?(out: Record<string, unknown>, node: Record<string, unknown>, info: FinishInfo): void;
}
