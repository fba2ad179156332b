import type {
  Client,
  ClientCapabilities,
  ClientOptions,
  Implementation,
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/client';
import type { ModelAdapter, UiHooks } from '@toolhost/contract';
import { ConnectionClient } from './connection-client.js';
import { registerElicitation } from './elicitation.js';
import { registerLogging, type ServerLogEvent } from './logging.js';
import { ResourceSubscriptions, type ResourceUpdatedEvent } from './resource-subscriptions.js';
import type { RootsController } from './roots-controller.js';
import { registerSampling } from './sampling.js';
import { ServerRequestLimiter, type ServerRequestLimits } from './server-request-limiter.js';
import { TASKS_EXTENSION_ID } from './tasks/task-wire.js';
import type { OutboundMetaSources } from './trace-meta.js';

/**
 * A validator of server-supplied JSON schemas, in the shape of the MCP SDK's
 * `jsonSchemaValidator` (`LinearTimeJsonSchemaValidator` of `@toolhost/confirmation` has it):
 * `getValidator` compiles a schema, or throws when it cannot.
 */
export interface SchemaValidatorFactory {
  /** Compile `schema` into a check of one value (throws when the schema cannot be compiled). */
  getValidator<T>(
    schema: object,
  ): (input: unknown) => { valid: true; data: T; errorMessage: undefined } | { valid: false; data: undefined; errorMessage: string };
}

/**
 * The validator the SDK client uses for server-supplied schemas (a tool's `outputSchema` in
 * `callTool`): the given one, except that a schema it cannot compile (such as a pattern RE2
 * cannot run) accepts anything here rather than failing every call of the tool: the host checks
 * structured content itself afterwards and reports such a schema as `unchecked`.
 */
function lenientValidator(inner: SchemaValidatorFactory): jsonSchemaValidator {
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      try {
        return inner.getValidator<T>(schema);
      } catch {
        return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
      }
    },
  };
}

/** Options of {@link createClientFeatures}. */
export interface ClientFeaturesOptions {
  /** The server this client talks to (events and messages carry it). */
  readonly serverName: string;
  /** The model adapter; sampling is offered only when it has `createMessage`. */
  readonly adapter?: Pick<ModelAdapter, 'createMessage' | 'provider'>;
  /** UI hooks. */
  readonly hooks?: Pick<UiHooks, 'approveSampling' | 'reviewSamplingResult' | 'elicit'>;
  /** The host's project folders; when given, the `roots` capability is declared. */
  readonly roots?: RootsController;
  /** Offer form elicitation. @default true */
  readonly elicitationForm?: boolean;
  /** Offer URL elicitation (2025-11-25). @default true */
  readonly elicitationUrl?: boolean;
  /** Receives the server's log messages. */
  readonly onLog?: (event: ServerLogEvent) => void;
  /** Receives `notifications/resources/updated`. */
  readonly onResourceUpdated?: (event: ResourceUpdatedEvent) => void;
  /** Receives `notifications/elicitation/complete`. */
  readonly onElicitationComplete?: (event: { serverName: string; elicitationId: string }) => void;
  /**
   * The SDK client options that negotiate or pin the MCP revision (from `@toolhost/discovery`'s
   * `versionNegotiationOptions` for the server entry). @default negotiate automatically
   */
  readonly versionOptions?: Pick<ClientOptions, 'versionNegotiation' | 'supportedProtocolVersions'>;
  /** Extensions the host supports, declared in `capabilities.extensions` (identifier → settings). */
  readonly extensions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** What each outgoing message adds to its `_meta`: the log level (2026-07-28) and the trace context. */
  readonly outboundMeta?: OutboundMetaSources;
  /**
   * Rate limit of the server's requests to the client (elicitation, sampling, roots list,
   * counted together): the excess is answered with a JSON-RPC error saying it was rate-limited.
   * @default 4 at a time, 10 per second
   */
  readonly serverRequests?: ServerRequestLimits;
  /**
   * Run long tool calls as tasks: declare the 2026-07-28 Tasks extension
   * (`io.modelcontextprotocol/tasks`) and hand task answers to `tools/call` to the host instead
   * of failing them. @default false
   */
  readonly tasks?: boolean;
  /** Most levels of JSON nesting of a message from the server (see {@link ConnectionClient}). @default 512 */
  readonly maxMessageDepth?: number;
  /**
   * How the client checks a tool's `outputSchema` (toolhost's host gives Ajv with patterns matched
   * in linear time by RE2, so a catastrophic pattern cannot freeze the process); a schema it cannot
   * compile accepts anything. @default the MCP SDK's own validator
   */
  readonly jsonSchemaValidator?: SchemaValidatorFactory;
}

/** The features installed on one client by {@link ClientFeatures.attach}. */
export interface AttachedClientFeatures {
  /** Subscribe and unsubscribe to this server's resources. */
  readonly subscriptions: ResourceSubscriptions;
  /** Stop routing roots changes to this client (call on disconnect). */
  detach(): void;
}

/** Capabilities to construct a client with, and the handlers that back them. */
export interface ClientFeatures {
  /** Pass to `new Client(info, { capabilities })`: capabilities must be declared at construction. */
  readonly capabilities: ClientCapabilities;
  /** Install the request and notification handlers on the client (before `connect`). */
  attach(client: Client): AttachedClientFeatures;
  /**
   * Construct a {@link ConnectionClient} (protocol revision negotiated: 2026-07-28 where the
   * server speaks it, else `initialize`) with these capabilities and attach the handlers: the one
   * call a host needs per connection attempt.
   */
  createClient(clientInfo: Implementation): { client: ConnectionClient; attached: AttachedClientFeatures };
}

/**
 * Everything the client side of MCP needs for one server connection: the capabilities to declare
 * (sampling only with an adapter that can `createMessage`; form and URL elicitation; roots with
 * `listChanged`) and the handlers for sampling, elicitation, roots, logging and resource updates.
 *
 * @example
 * ```ts
 * const features = createClientFeatures({ serverName: 'docs', adapter, hooks: uiHooks, roots });
 * const { client, attached } = features.createClient({ name: 'my-host', version: '1.0.0' });
 * await client.connect(transport);
 * ```
 */
export function createClientFeatures(options: ClientFeaturesOptions): ClientFeatures {
  const sampling = typeof options.adapter?.createMessage === 'function';
  const extensions = {
    ...(options.extensions ? structuredClone(options.extensions) : {}),
    ...(options.tasks ? { [TASKS_EXTENSION_ID]: {} } : {}),
  } as ClientCapabilities['extensions'];
  const form = options.elicitationForm ?? true;
  const url = options.elicitationUrl ?? true;
  const capabilities: ClientCapabilities = {
    ...(sampling ? { sampling: {} } : {}),
    ...(form || url ? { elicitation: { ...(form ? { form: {} } : {}), ...(url ? { url: {} } : {}) } } : {}),
    ...(options.roots ? { roots: { listChanged: true } } : {}),
    ...(extensions && Object.keys(extensions).length > 0 ? { extensions } : {}),
  };
  const validator = options.jsonSchemaValidator ? lenientValidator(options.jsonSchemaValidator) : undefined;
  const features: ClientFeatures = {
    capabilities,
    createClient(clientInfo) {
      const client = new ConnectionClient(
        clientInfo,
        {
          capabilities,
          ...(validator ? { jsonSchemaValidator: validator } : {}),
          ...(options.versionOptions ?? { versionNegotiation: { mode: 'auto' } }),
        },
        {
          outboundMeta: options.outboundMeta ?? {},
          limiter: new ServerRequestLimiter(options.serverName, options.serverRequests),
          tasks: options.tasks === true,
          ...(options.maxMessageDepth !== undefined ? { maxMessageDepth: options.maxMessageDepth } : {}),
        },
      );
      return { client, attached: features.attach(client) };
    },
    attach(client) {
      const { serverName, hooks } = options;
      if (sampling) {
        registerSampling(client, {
          serverName,
          adapter: options.adapter,
          approve: hooks?.approveSampling?.bind(hooks),
          reviewResult: hooks?.reviewSamplingResult?.bind(hooks),
        });
      }
      if (form || url) {
        registerElicitation(client, { serverName, elicit: hooks?.elicit?.bind(hooks), onComplete: options.onElicitationComplete });
      }
      options.roots?.attach(client);
      registerLogging(client, { serverName, onLog: options.onLog ?? (() => undefined) });
      const subscriptions = new ResourceSubscriptions(client, {
        serverName,
        onUpdated: options.onResourceUpdated ?? (() => undefined),
      });
      return {
        subscriptions,
        detach: () => {
          options.roots?.detach(client);
          void subscriptions.close();
        },
      };
    },
  };
  return features;
}
