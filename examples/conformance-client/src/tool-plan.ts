import { sampleArguments } from './sample-arguments.js';

/** A tool as the plan needs it (a subset of `HostToolDefinition`). */
export interface PlannableTool {
  /** The registered name, which `host.callTool` takes. */
  readonly name: string;
  /** The tool's own name on its server. */
  readonly originalName: string;
  /** The input schema as the server listed it. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** One call the scripted model makes. */
export interface PlannedCall {
  /** The registered tool name. */
  readonly name: string;
  /** The tool's own name on its server (for log lines). */
  readonly originalName: string;
  /** The arguments. */
  readonly arguments: Record<string, unknown>;
}

/**
 * The echo tool of the suite's JSON Schema scenarios (`json-schema-2020-12-preservation`): its
 * `schema` argument must be another tool's input schema exactly as the client holds it.
 */
export const JSON_SCHEMA_ECHO_TOOL = 'json_schema_echo';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when a property schema admits `null` (`type: "null"` or a type list with it). */
function admitsNull(schema: unknown): boolean {
  if (!isRecord(schema)) return true;
  const { type } = schema;
  if (type === undefined) return true;
  return type === 'null' || (Array.isArray(type) && type.includes('null'));
}

/**
 * The arguments without the `null`s given for optional properties that do not admit `null`: a
 * model that declines to fill an optional parameter often says so with `null`, and toolhost's
 * OpenAI adapters remove those (`stripNullOptionals` of `@toolhost/schema-sanitizer`) before the
 * host validates the call, so the parameter is sent as "not provided".
 */
export function withoutNullOptionals(args: Record<string, unknown>, schema: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  return Object.fromEntries(
    Object.entries(args).filter(([name, value]) => value !== null || required.includes(name) || admitsNull(properties[name])),
  );
}

/** `toolCalls` of the runner's context (`MCP_CONFORMANCE_CONTEXT`): the exact calls a scenario wants, in order. */
function contextToolCalls(
  context: Readonly<Record<string, unknown>> | undefined,
): { name: string; arguments: Record<string, unknown> }[] | undefined {
  const raw = context?.toolCalls;
  if (!Array.isArray(raw)) return undefined;
  return raw.map((entry, index) => {
    if (!isRecord(entry) || typeof entry.name !== 'string') {
      throw new Error(`MCP_CONFORMANCE_CONTEXT.toolCalls[${index}] has no tool name`);
    }
    return { name: entry.name, arguments: isRecord(entry.arguments) ? entry.arguments : {} };
  });
}

/**
 * The calls the scripted model makes once the server is connected:
 *
 * 1. when the runner's context lists `toolCalls` (the `http-custom-headers` scenario gives the
 *    exact argument values its header checks need), those calls, in order, with those arguments
 *    (less the `null`s of optional parameters, see {@link withoutNullOptionals});
 * 2. when the server offers the JSON Schema echo tool, one echo call per other tool, passing that
 *    tool's input schema as the host holds it (the round trip `json-schema-2020-12-preservation`
 *    compares with what it listed);
 * 3. otherwise every tool once, with arguments built from its input schema.
 *
 * @throws Error when the context names a tool the host does not offer (the step cannot be performed).
 */
export function planToolCalls(tools: readonly PlannableTool[], context?: Readonly<Record<string, unknown>>): PlannedCall[] {
  const requested = contextToolCalls(context);
  if (requested) {
    return requested.map((call) => {
      const tool = tools.find((candidate) => candidate.originalName === call.name);
      if (!tool) {
        throw new Error(
          `the scenario asks for a call to tool "${call.name}", which the host does not offer (offered: ${tools.map((t) => t.originalName).join(', ') || 'none'})`,
        );
      }
      return { name: tool.name, originalName: tool.originalName, arguments: withoutNullOptionals(call.arguments, tool.inputSchema) };
    });
  }
  const echo = tools.find((tool) => tool.originalName === JSON_SCHEMA_ECHO_TOOL);
  if (echo) {
    return tools
      .filter((tool) => tool !== echo)
      .map((tool) => ({ name: echo.name, originalName: echo.originalName, arguments: { schema: tool.inputSchema } }));
  }
  return tools.map((tool) => ({ name: tool.name, originalName: tool.originalName, arguments: sampleArguments(tool.inputSchema) }));
}
