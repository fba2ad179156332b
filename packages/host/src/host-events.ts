import type { ResourceUpdatedEvent, ServerLogEvent } from './client-features/index.js';
import type { ToolCall } from './tool-call.js';
import type { ServerStatusChange, ToolCallProgressEvent } from './ui-hooks.js';

/** Events of `McpToolHost`, by name. */
export interface HostEvents {
  /** The whole tool call, on every lifecycle update (`PENDING` → `EXECUTING` → `SUCCEEDED`/`FAILED`/`CANCELLED`). */
  'tool-call-update': ToolCall;
  /** Progress of a running tool call. */
  'tool-progress': ToolCallProgressEvent;
  /** A server's connection status changed. */
  'server-status-change': ServerStatusChange;
  /** The overall discovery state changed (`not_started`, `in_progress`, `completed`). */
  'discovery-state-change': { readonly state: string };
  /** The registered tools or prompts changed (after discovery or a server's `list_changed`). */
  'registry-change': { readonly kind: 'tools' | 'prompts' | 'resources' };
  /** An OAuth sign-in started: show `url` in case the browser does not open. */
  'auth-url': { readonly serverName: string; readonly url: string };
  /** A server sent a log message (`notifications/message`). */
  'server-log': ServerLogEvent;
  /** A subscribed resource changed (`notifications/resources/updated`). */
  'resource-update': ResourceUpdatedEvent;
}

/** A listener of one host event. */
export type HostEventListener<K extends keyof HostEvents> = (payload: HostEvents[K]) => void;

/** A small typed emitter; a listener that throws never reaches the host's own code. */
export class HostEventEmitter {
  readonly #listeners = new Map<keyof HostEvents, Set<(payload: never) => void>>();

  /** Add a listener; the returned function removes it. */
  on<K extends keyof HostEvents>(event: K, listener: HostEventListener<K>): () => void {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as (payload: never) => void);
    return () => {
      set.delete(listener as (payload: never) => void);
    };
  }

  /** Call every listener of `event`. */
  emit<K extends keyof HostEvents>(event: K, payload: HostEvents[K]): void {
    for (const listener of [...(this.#listeners.get(event) ?? [])]) {
      try {
        (listener as HostEventListener<K>)(payload);
      } catch {
        // A faulty UI listener must not break a tool call.
      }
    }
  }

  /** Remove every listener. */
  clear(): void {
    this.#listeners.clear();
  }
}
