import type { Client, Root } from '@modelcontextprotocol/client';
import { toFileUri } from './to-file-uri.js';

/** One project folder offered to servers as a root. */
export interface ProjectFolder {
  /** Absolute path (or `file://` URI) of the folder. */
  readonly path: string;
  /** Display name sent with the root; defaults to the folder's last path segment. */
  readonly name?: string;
}

/** Options of {@link RootsController}. */
export interface RootsControllerOptions {
  /** The folders to offer at first. @default [] */
  readonly folders?: ReadonlyArray<string | ProjectFolder>;
  /** Called when sending `notifications/roots/list_changed` to a server fails. */
  readonly onError?: (error: unknown) => void;
}

function toRoot(folder: string | ProjectFolder): Root {
  const entry = typeof folder === 'string' ? { path: folder } : folder;
  const uri = toFileUri(entry.path);
  const trimmed = uri.replace(/\/+$/, '');
  const name = entry.name ?? decodeURIComponent(trimmed.slice(trimmed.lastIndexOf('/') + 1));
  return name ? { uri, name } : { uri };
}

/**
 * The host's project folders as MCP roots. Attach it to every client (constructed with the
 * `roots: { listChanged: true }` capability): it answers `roots/list`, and `setFolders` sends
 * `notifications/roots/list_changed` to every attached, connected client.
 */
export class RootsController {
  #roots: Root[];
  readonly #clients = new Set<Client>();
  readonly #onError: ((error: unknown) => void) | undefined;

  constructor(options: RootsControllerOptions = {}) {
    this.#roots = (options.folders ?? []).map(toRoot);
    this.#onError = options.onError;
  }

  /** The current roots, as sent in `roots/list`. */
  list(): Root[] {
    return this.#roots.map((root) => ({ ...root }));
  }

  /** Answer `roots/list` on this client from now on, and notify it on changes. */
  attach(client: Client): void {
    client.setRequestHandler('roots/list', () => ({ roots: this.list() }));
    this.#clients.add(client);
  }

  /** Stop notifying this client (call when its connection closes). */
  detach(client: Client): void {
    this.#clients.delete(client);
  }

  /**
   * Replace the folders. When the list really changed, every attached, connected client sends
   * `notifications/roots/list_changed`; the promise settles when all have been sent.
   */
  async setFolders(folders: ReadonlyArray<string | ProjectFolder>): Promise<void> {
    const next = folders.map(toRoot);
    if (JSON.stringify(next) === JSON.stringify(this.#roots)) return;
    this.#roots = next;
    await Promise.all(
      [...this.#clients]
        .filter((client) => client.transport !== undefined && client.getServerCapabilities() !== undefined)
        .map((client) => client.sendRootsListChanged().catch((error: unknown) => this.#onError?.(error))),
    );
  }
}
