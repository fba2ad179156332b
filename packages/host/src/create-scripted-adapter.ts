import { sanitizeSchema } from '@toolhost/schema-sanitizer';
import {
  DEFAULT_TOOL_NAME_POLICY,
  type HostToolDefinition,
  type ModelAdapter,
  type ModelToolCall,
  type SamplingRequest,
  type SamplingResponse,
  type SchemaProfile,
  type ToolCallOutcome,
} from '@toolhost/contract';

/** One scripted model answer: some text and/or tool calls. */
export interface ScriptedTurn {
  /** Text the "model" says. */
  readonly text?: string;
  /** Tool calls the "model" asks for. */
  readonly toolCalls?: readonly ModelToolCall[];
}

/** A tool declaration as the scripted adapter produces it (vendor-neutral). */
export interface ScriptedToolDeclaration {
  /** Registered tool name. */
  readonly name: string;
  /** The tool's description. */
  readonly description: string;
  /** The input schema, sanitised with the adapter's `schemaProfile` (unchanged with `none`). */
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** What the scripted adapter returns from `toToolResults`: the outcomes themselves. */
export interface ScriptedToolResults {
  /** The outcomes, in call order. */
  readonly outcomes: readonly ToolCallOutcome[];
}

/** Options of {@link createScriptedAdapter}. */
export interface ScriptedAdapterOptions {
  /** The answers `nextTurn()` hands out, in order. @default [] */
  readonly turns?: readonly ScriptedTurn[];
  /** Provider name reported by the adapter. @default 'scripted' */
  readonly provider?: string;
  /** Schema profile reported by the adapter. @default 'none' */
  readonly schemaProfile?: SchemaProfile;
  /**
   * Answers `sampling/createMessage` requests. Without it the adapter has no `createMessage`,
   * so the host declines sampling.
   */
  readonly sampling?: (request: SamplingRequest) => SamplingResponse | string | Promise<SamplingResponse | string>;
}

/** Everything a scripted adapter was given, for assertions in tests. */
export interface ScriptedAdapterHistory {
  /** Every `toTools` call's output. */
  readonly tools: ScriptedToolDeclaration[][];
  /** Every `toToolResults` call's input. */
  readonly toolResults: ToolCallOutcome[][];
  /** Every sampling request answered. */
  readonly samplingRequests: SamplingRequest[];
}

/** An in-memory {@link ModelAdapter} that plays back scripted turns (a test double: it keeps its script). */
export interface ScriptedAdapter extends ModelAdapter<ScriptedToolDeclaration, ScriptedTurn, ScriptedToolResults> {
  /** The next scripted turn; throws when the script is exhausted. */
  nextTurn(): ScriptedTurn;
  /** Add turns to the end of the script. */
  push(...turns: ScriptedTurn[]): void;
  /** Number of turns not yet handed out. */
  readonly remainingTurns: number;
  /** What the adapter was given so far. */
  readonly history: ScriptedAdapterHistory;
}

/**
 * An offline, deterministic model adapter for tests, demos and examples: it plays back
 * scripted turns and records what the host gave it. Use it to test your own host code
 * without a model vendor.
 *
 * @example
 * ```ts
 * const adapter = createScriptedAdapter({
 *   turns: [{ toolCalls: [{ id: 'c1', name: 'echo', arguments: { message: 'hi' } }] }, { text: 'done' }],
 * });
 * const host = await McpToolHost.create({ settings, adapter });
 * const results = await host.handleModelResponse(adapter.nextTurn());
 * ```
 */
export function createScriptedAdapter(options: ScriptedAdapterOptions = {}): ScriptedAdapter {
  const queue: ScriptedTurn[] = [...(options.turns ?? [])];
  const history: ScriptedAdapterHistory = { tools: [], toolResults: [], samplingRequests: [] };
  const sampling = options.sampling;
  const schemaProfile = options.schemaProfile ?? 'none';
  const adapter: ScriptedAdapter = {
    specificationVersion: 'v1',
    provider: options.provider ?? 'scripted',
    schemaProfile,
    toolNames: DEFAULT_TOOL_NAME_POLICY,
    toTools(tools: readonly HostToolDefinition[]): ScriptedToolDeclaration[] {
      const declarations = tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: schemaProfile === 'none' ? tool.inputSchema : sanitizeSchema(tool.inputSchema, { profile: schemaProfile }),
      }));
      history.tools.push(declarations);
      return declarations;
    },
    getToolCalls(response: ScriptedTurn): ModelToolCall[] {
      return [...(response.toolCalls ?? [])];
    },
    toToolResults(outcomes: readonly ToolCallOutcome[]): ScriptedToolResults {
      history.toolResults.push([...outcomes]);
      return { outcomes: [...outcomes] };
    },
    nextTurn(): ScriptedTurn {
      const turn = queue.shift();
      if (!turn) throw new Error('The scripted adapter has no turns left: add more with push() or the turns option.');
      return turn;
    },
    push(...turns: ScriptedTurn[]): void {
      queue.push(...turns);
    },
    get remainingTurns(): number {
      return queue.length;
    },
    history,
  };
  if (sampling) {
    adapter.createMessage = async (request: SamplingRequest): Promise<SamplingResponse> => {
      history.samplingRequests.push(request);
      const answer = await sampling(request);
      return typeof answer === 'string' ? { model: adapter.provider, stopReason: 'endTurn', text: answer } : answer;
    };
  }
  return adapter;
}
