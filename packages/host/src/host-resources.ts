import type { RegisteredResource, RegisteredResourceTemplate } from '@toolhost/discovery';
import { readResourceParts, type ResourceContent } from './client-features/read-resource-parts.js';
import { resolveResourceReferences, type ResolvedResourceReferences } from './client-features/resource-references.js';
import type { HostCore } from './host-core.js';
import { HostError } from './host-error.js';
import { withHostErrors } from './host-error-from.js';
import type { RequestOptions } from './request-options.js';

/** A resource a connected server lists. */
export interface HostResource {
  /** The server that lists it. */
  readonly serverName: string;
  /** Its URI. */
  readonly uri: string;
  /** Its name. */
  readonly name: string;
  /** Display title, when given. */
  readonly title?: string;
  /** What it is, when the server says. */
  readonly description?: string;
  /** MIME type, when known. */
  readonly mimeType?: string;
  /** Size in bytes, when known. */
  readonly size?: number;
}

/** A resource template a connected server lists (`file:///{path}`). */
export interface HostResourceTemplate {
  /** The server that lists it. */
  readonly serverName: string;
  /** The RFC 6570 URI template. */
  readonly uriTemplate: string;
  /** Its name. */
  readonly name: string;
  /** Display title, when given. */
  readonly title?: string;
  /** What it is, when the server says. */
  readonly description?: string;
  /** MIME type of the resources it makes, when known. */
  readonly mimeType?: string;
}

function optional<K extends string>(key: K, value: unknown): Partial<Record<K, string>> {
  return typeof value === 'string' ? ({ [key]: value } as Record<K, string>) : {};
}

function toHostResource(entry: RegisteredResource): HostResource {
  const { resource } = entry;
  return {
    serverName: entry.serverName,
    uri: entry.uri,
    name: resource.name,
    ...optional('title', resource.title),
    ...optional('description', resource.description),
    ...optional('mimeType', resource.mimeType),
    ...(typeof resource.size === 'number' ? { size: resource.size } : {}),
  };
}

function toHostResourceTemplate(entry: RegisteredResourceTemplate): HostResourceTemplate {
  const template = entry.resourceTemplate;
  return {
    serverName: entry.serverName,
    uriTemplate: entry.uriTemplate,
    name: template.name,
    ...optional('title', template.title),
    ...optional('description', template.description),
    ...optional('mimeType', template.mimeType),
  };
}

/** `host.resources`: the servers' MCP resources, read, watched, or pulled into a prompt with `@server:uri`. */
export class HostResources {
  readonly #core: HostCore;

  /** @internal */
  constructor(core: HostCore) {
    this.#core = core;
  }

  /** The resources the connected servers list (every page), optionally of one server only. */
  list(params: { readonly serverName?: string } = {}): HostResource[] {
    return this.#core.manager.resources
      .list()
      .filter((entry) => params.serverName === undefined || entry.serverName === params.serverName)
      .map(toHostResource);
  }

  /** The resource templates the connected servers list, optionally of one server only. */
  listTemplates(params: { readonly serverName?: string } = {}): HostResourceTemplate[] {
    return this.#core.manager.resourceTemplates
      .list()
      .filter((entry) => params.serverName === undefined || entry.serverName === params.serverName)
      .map(toHostResourceTemplate);
  }

  /**
   * `resources/read` on one server: each content item as a part (text as `text`, binary as
   * `inlineData`). Without `serverName`, the connected server that lists `uri` is used.
   *
   * @throws HostError `RESOURCE_NOT_FOUND` when no connected server lists the URI and no server is named;
   * `SERVER_NOT_FOUND` / `SERVER_NOT_CONNECTED`; `REQUEST_FAILED` when the server fails the read.
   */
  async read(params: { readonly uri: string; readonly serverName?: string }, options: RequestOptions = {}): Promise<ResourceContent[]> {
    this.#core.assertOpen();
    const { uri } = params;
    const serverName = params.serverName ?? this.#core.manager.findResource(uri)?.serverName;
    if (serverName === undefined) {
      throw new HostError({
        code: 'RESOURCE_NOT_FOUND',
        uri,
        message: `No connected MCP server lists the resource "${uri}"; pass serverName to read it from a given server.`,
      });
    }
    await this.#core.resume(serverName);
    const client = this.#core.requireClient(serverName, `read "${uri}"`);
    return readResourceParts(client, { serverName, uri, ...(options.signal ? { signal: options.signal } : {}) });
  }

  /**
   * Subscribe to a resource (`resources/subscribe`); its changes arrive as `resource-update` events.
   *
   * @throws HostError `SERVER_NOT_FOUND` / `SERVER_NOT_CONNECTED`; `CAPABILITY_NOT_SUPPORTED` when it offers no subscriptions.
   */
  async subscribe(params: { readonly serverName: string; readonly uri: string }, _options: RequestOptions = {}): Promise<void> {
    this.#core.assertOpen();
    await this.#core.resume(params.serverName);
    const subscriptions = this.#core.subscriptions(params.serverName);
    if (!subscriptions) throw this.#core.notConnected(params.serverName, `subscribe to "${params.uri}"`);
    await withHostErrors(() => subscriptions.subscribe(params.uri));
  }

  /** Unsubscribe from a resource (no request when it was not subscribed, or the server is gone). */
  async unsubscribe(params: { readonly serverName: string; readonly uri: string }, _options: RequestOptions = {}): Promise<void> {
    this.#core.assertOpen();
    await this.#core.subscriptions(params.serverName)?.unsubscribe(params.uri);
  }

  /**
   * Resolve the `@server:uri` references in user input (`summarise @docs:file:///guide.md`) into
   * parts for the model: the input, then `Content from @server:uri:` and the resource's text or
   * data for each reference. References that cannot be read are listed in `failed` (each with a
   * `HostError`) and noted in a text part; nothing is thrown.
   */
  async resolveReferences(params: { readonly input: string }, options: RequestOptions = {}): Promise<ResolvedResourceReferences> {
    this.#core.assertOpen();
    return resolveResourceReferences({
      input: params.input,
      getClient: (serverName) => this.#core.manager.getClient(serverName),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
}
