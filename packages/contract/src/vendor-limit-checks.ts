import { AdapterError } from './adapter-error.js';
import { escapeControlText } from './escape-control-text.js';
import { measureSchema } from './measure-schema.js';
import type { HostToolDefinition } from './model-adapter.js';
import type { ToolNamePolicy } from './tool-name-policy.js';
import type { VendorLimits } from './vendor-limits.js';

/** Options of {@link vendorLimitChecks}. */
export interface VendorLimitChecksOptions {
  /** The adapter's provider name (`openai`, `anthropic`, `gemini`...), put on every error. */
  readonly provider: string;
  /** The vendor as messages name it (`OpenAI`, `Anthropic`, `Gemini`...). */
  readonly vendor: string;
  /** The adapter's limits (see `resolveVendorLimits`). */
  readonly limits: VendorLimits;
  /** The adapter's tool name policy: every declared name must be valid under it. */
  readonly toolNames: ToolNamePolicy;
  /** True when the adapter declares tools marked `deferLoading` for the vendor's own tool search. */
  readonly nativeToolSearch: boolean;
  /** What to do about a schema over a per-schema limit, when the adapter has something to add (`strict: false`...). */
  readonly schemaAdvice?: string | undefined;
}

/** One tool declaration as an adapter is about to return it, for {@link VendorLimitChecks.checkDeclarations}. */
export interface ToolDeclarationCheck {
  /** The tool's name. */
  readonly name: string;
  /** The whole declaration, as it will be sent (counted toward `maxToolsBytes`). */
  readonly declaration: unknown;
  /** The input schema inside it (checked against the per-schema limits); absent when it has none. */
  readonly schema?: unknown;
}

/** The checks an adapter's `toTools` makes so it never returns declarations its vendor rejects. */
export interface VendorLimitChecks {
  /** The limits checked. */
  readonly limits: VendorLimits;
  /**
   * Check every tool's name against the name policy, refuse deferred tools unless the adapter has
   * native tool search, check the number of deferred tools, and shorten each description over
   * `maxDescriptionLength` (keeping its start and saying how much was cut). Returns the tools to
   * declare, in order; the input is not changed.
   */
  prepareTools(tools: readonly HostToolDefinition[]): HostToolDefinition[];
  /** Check the number of entries of the request's tool list against `maxTools`. */
  checkToolCount(entries: number): void;
  /** Check each declaration's schema against the per-schema limits and all of them against `maxToolsBytes`. */
  checkDeclarations(declarations: readonly ToolDeclarationCheck[]): void;
}

const TOOL_SEARCH_ADVICE =
  "Turn on tool search, so the host offers the model a few tools and a search tool and loads the rest when the model asks for them (McpToolHost.create({ toolSearch: 'auto' })), or offer fewer tools (a listTools filter, fewer servers).";

/** Shown names: bounded and escaped, since a name may come from a server. */
function shown(name: string): string {
  return `'${escapeControlText(name, { maxLength: 80 })}'`;
}

/** UTF-8 length of a text, without encoding it. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Bytes of a value's compact JSON text (0 for what JSON cannot hold). */
function jsonBytes(value: unknown): number {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? 0 : utf8Length(text);
}

/** The first `length` UTF-16 units of `text`, without splitting a surrogate pair. */
function cut(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/**
 * `text` within `max` characters: its start and a marker saying how much was cut, so the model
 * knows the description goes on. A limit too small for the marker gets the start alone.
 */
function shorten(text: string, max: number, vendor: string): string {
  const marker = (omitted: number) => ` […${omitted} more characters cut to fit ${vendor}'s limit of ${max}]`;
  let keep = max - marker(text.length).length;
  if (keep < 1) return cut(text, max);
  keep = cut(text, keep).length;
  return `${text.slice(0, keep)}${marker(text.length - keep)}`;
}

/**
 * The vendor-limit checks of one adapter, its `AdapterError`s naming `provider` and, in
 * `limit`, the limit broken. Over a count or size limit they throw `VENDOR_LIMIT_EXCEEDED` with a
 * message that names the limit, the vendor, the count or size and what to do; a description
 * over `maxDescriptionLength` is shortened instead, since the model loses only its end.
 *
 * @example
 * ```ts
 * const checks = vendorLimitChecks({
 *   provider: 'openai', vendor: 'OpenAI', limits: { maxTools: 128 }, toolNames: DEFAULT_TOOL_NAME_POLICY, nativeToolSearch: false,
 * });
 * const declarations = checks.prepareTools(tools).map((tool) => ({ name: tool.name, parameters: tool.inputSchema }));
 * checks.checkToolCount(declarations.length);
 * checks.checkDeclarations(declarations.map((d) => ({ name: d.name, declaration: d, schema: d.parameters })));
 * ```
 */
export function vendorLimitChecks(options: VendorLimitChecksOptions): VendorLimitChecks {
  const { provider, vendor, limits, toolNames, nativeToolSearch } = options;
  const exceeded = (limit: keyof VendorLimits | 'toolNames', message: string, toolName?: string): AdapterError =>
    new AdapterError({ code: 'VENDOR_LIMIT_EXCEEDED', message, provider, toolName, limit });
  const schemaAdvice = `Leave the tool out (a listTools filter) or ask its server for a smaller schema${options.schemaAdvice ? `; ${options.schemaAdvice}` : ''}.`;

  const checkName = (name: string): void => {
    if (name.length >= 1 && name.length <= toolNames.maxLength && toolNames.normalize(name) === name) return;
    const what =
      name.length > toolNames.maxLength
        ? `is ${name.length} characters long; ${vendor} accepts at most ${toolNames.maxLength}`
        : `has characters ${vendor} does not accept in a tool name (or is empty)`;
    throw exceeded(
      'toolNames',
      `Tool name ${shown(name)} ${what}, so ${vendor} would reject the request; nothing was sent to ${vendor}. ` +
        "The host names every tool within the adapter's toolNames policy: declare tools through host.listTools(), or name this one within the policy.",
      name,
    );
  };

  return {
    limits,
    prepareTools(tools) {
      let deferred = 0;
      const prepared = tools.map((tool) => {
        checkName(tool.name);
        if (tool.deferLoading) {
          if (!nativeToolSearch) {
            throw new AdapterError({
              code: 'INVALID_OPTIONS',
              message:
                `Tool ${shown(tool.name)} is marked deferLoading, but this ${vendor} adapter has no native tool search, so it would be loaded after all. ` +
                "Hand it loaded tools only, or use an adapter whose nativeToolSearch is true (createAnthropicAdapter({ toolSearch: 'native' }), createOpenAIResponsesAdapter({ toolSearch: 'native' })).",
              provider,
              toolName: tool.name,
            });
          }
          deferred++;
        }
        const max = limits.maxDescriptionLength;
        if (max === undefined || tool.description.length <= max) return tool;
        return { ...tool, description: shorten(tool.description, max, vendor) };
      });
      const maxDeferred = limits.maxDeferredTools;
      if (maxDeferred !== undefined && deferred > maxDeferred) {
        throw exceeded(
          'maxDeferredTools',
          `${vendor} accepts at most ${maxDeferred} deferred tools in one request (limit maxDeferredTools); this one would defer ${deferred}. ` +
            'Nothing was sent to ${vendor}. Offer fewer tools (a listTools filter, fewer servers).',
        );
      }
      return prepared;
    },
    checkToolCount(entries) {
      const max = limits.maxTools;
      if (max === undefined || entries <= max) return;
      throw exceeded(
        'maxTools',
        `${vendor} accepts at most ${max} tools in one request (limit maxTools); this one would declare ${entries}. ` +
          `Nothing was sent to ${vendor}. ${TOOL_SEARCH_ADVICE}`,
      );
    },
    checkDeclarations(declarations) {
      const perSchema = [
        ['maxSchemaDepth', 'levels of nested objects', 'depth'],
        ['maxSchemaProperties', 'object properties', 'properties'],
        ['maxSchemaEnumValues', 'enum values', 'enumValues'],
        ['maxSchemaStringLength', 'characters of property names, definition names, enum values and consts', 'stringLength'],
      ] as const;
      const measured = perSchema.some(([limit]) => limits[limit] !== undefined);
      let total = 0;
      for (const { name, declaration, schema } of declarations) {
        if (schema !== undefined && limits.maxSchemaBytes !== undefined) {
          const bytes = jsonBytes(schema);
          if (bytes > limits.maxSchemaBytes) {
            throw exceeded(
              'maxSchemaBytes',
              `The input schema of tool ${shown(name)} is ${bytes} bytes of JSON; ${vendor} accepts at most ${limits.maxSchemaBytes} (limit maxSchemaBytes). ` +
                `Nothing was sent to ${vendor}. ${schemaAdvice}`,
              name,
            );
          }
        }
        if (schema !== undefined && measured) {
          const measures = measureSchema(schema);
          for (const [limit, what, key] of perSchema) {
            const max = limits[limit];
            if (max === undefined || measures[key] <= max) continue;
            throw exceeded(
              limit,
              `The input schema of tool ${shown(name)} has ${measures[key]} ${what}; ${vendor} accepts at most ${max} (limit ${limit}). ` +
                `Nothing was sent to ${vendor}. ${schemaAdvice}`,
              name,
            );
          }
        }
        if (limits.maxToolsBytes !== undefined) total += jsonBytes(declaration);
      }
      if (limits.maxToolsBytes !== undefined && total > limits.maxToolsBytes) {
        throw exceeded(
          'maxToolsBytes',
          `The tool declarations of this request are ${total} bytes of JSON; ${vendor} accepts at most ${limits.maxToolsBytes} in a whole request (limit maxToolsBytes). ` +
            `Nothing was sent to ${vendor}. ${TOOL_SEARCH_ADVICE}`,
        );
      }
    },
  };
}
