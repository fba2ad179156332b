import type { ConfirmationRequest, ToolCall, ToolCallProgress } from '@toolhost/contract';

/** Severity of a server's log messages, least to most severe (RFC 5424 names). */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/**
 * Something the host could not do as configured, that does not stop it: servers blocked because
 * the project folder is not trusted, settings entries that were skipped, unknown fields.
 * `host.servers.status().warnings` lists them; each also arrives as a `warning` event.
 */
export interface HostWarning {
  /**
   * Stable code: a configuration error's code (`INVALID_TYPE`, ...), a warning's (`UNKNOWN_FIELD`,
   * ...), `UNTRUSTED_PROJECT`, `CHANGED_SINCE_TRUSTED`, or, during a sign-in, `LOOK_ALIKE_HOST`
   * (the authorization server or page is on a punycode or mixed-script host name; the message
   * names the decoded host; emitted before the browser opens, not kept in the status).
   */
  readonly code: string;
  /** What happened and what the user can do; escaped (no control, BiDi, zero-width or tag characters), never holding a secret. */
  readonly message: string;
  /** The server it concerns, when one. */
  readonly serverName?: string;
  /** The settings file it concerns, when one. */
  readonly filePath?: string;
}

/** Events of `McpToolHost`, by name. Events only notify; the host never waits for a listener. */
export interface HostEvents {
  /** The whole tool call, on every lifecycle update (`PENDING` → `EXECUTING` → `SUCCEEDED`/`FAILED`/`CANCELLED`). */
  'tool-call-update': ToolCall;
  /**
   * A tool call waits for the user's decision: show `request` and answer it with
   * `host.confirmations.answer({ toolCallId, optionId })` (or let the `confirm` hook answer).
   * Emitted right after the call's `PENDING` `tool-call-update` that carries the same request.
   */
  'confirmation-pending': ConfirmationRequest;
  /** Progress of a running tool call (`progress` grows; `total` and `message` when the server gives them). */
  'tool-call-progress': ToolCallProgress & {
    /** The call the progress belongs to. */
    readonly toolCallId: string;
    /** The server running the tool. */
    readonly serverName: string;
    /** The tool name the model used. */
    readonly toolName: string;
  };
  /** A server's connection status changed. */
  'server-status-change': {
    /** The server. */
    readonly serverName: string;
    /** The new status (`CONNECTING`, `CONNECTED`, `DISCONNECTED`, ...). */
    readonly status: string;
    /** The status before the change. */
    readonly previousStatus: string;
    /** Why the server is disconnected, when it is. */
    readonly error?: string;
  };
  /** The overall discovery state changed (`NOT_STARTED`, `IN_PROGRESS`, `COMPLETED`). */
  'discovery-state-change': { readonly state: string; readonly previousState: string };
  /**
   * Servers were added, removed or changed at runtime (`host.servers.add`/`remove`/`reload`/
   * `enable`/`disable`, a settings file change with `watchSettings`), by name.
   */
  'servers-change': {
    /** Servers that were added. */
    readonly added: readonly string[];
    /** Servers that were removed (their connection closed, their process ended). */
    readonly removed: readonly string[];
    /** Servers whose entry changed (or that were enabled, disabled, blocked): disconnected, then connected again when they may run. */
    readonly restarted: readonly string[];
    /** Servers whose `timeout`, `trust` or `description` changed, applied without reconnecting. */
    readonly updated: readonly string[];
  };
  /**
   * The registered tools, prompts, resources or skills changed (after discovery, a server's
   * `list_changed`, or a runtime change of the servers). For `skills`, give the model the new
   * `host.skills.instructions()`.
   */
  'registry-change': { readonly kind: 'tools' | 'prompts' | 'resources' | 'skills' };
  /** An OAuth sign-in started: show `url` in case the browser does not open. */
  'sign-in-start': { readonly serverName: string; readonly url: string };
  /** A server sent a log message (`notifications/message`). */
  'server-log': {
    /** The server that sent it. */
    readonly serverName: string;
    /** Severity. */
    readonly level: LogLevel;
    /** The server's logger name, when it gave one. */
    readonly logger?: string;
    /** The payload (any JSON value; untrusted). */
    readonly data: unknown;
  };
  /** A subscribed resource changed (`notifications/resources/updated`). */
  'resource-update': {
    /** The server that sent it. */
    readonly serverName: string;
    /** The URI that changed (may be a sub-resource of a subscribed URI). */
    readonly uri: string;
  };
  /**
   * A stdio server wrote a line to its stderr (Gemini CLI shows these in debug mode), or lines
   * were dropped because it wrote more than `limits.stderrLinesPerSecond` (default 100) a second.
   * `line` is escaped with `escapeControlText` (no control characters) and at most 1000
   * characters before escaping, so it is safe to print. The last lines are also kept in
   * `host.servers.status()` (`stderrTail`) whether anyone listens or not.
   */
  'server-stderr': ServerStderrEvent;
  /** Something the host could not do as configured (see {@link HostWarning}). */
  warning: HostWarning;
}

/** Payload of the `server-stderr` event: one stderr line of a stdio server, or a count of dropped lines. */
export type ServerStderrEvent =
  | {
      /** The server that wrote it. */
      readonly serverName: string;
      /** A line. */
      readonly kind: 'line';
      /** The line, escaped (safe to print) and cut at 1000 characters with `…`. */
      readonly line: string;
    }
  | {
      /** The server that wrote them. */
      readonly serverName: string;
      /** Lines were dropped. */
      readonly kind: 'dropped';
      /** How many lines of the last second were not delivered. */
      readonly droppedLines: number;
    };

/** A listener of one host event. */
type HostEventListener<K extends keyof HostEvents> = (payload: HostEvents[K]) => void;

/** A server's log message, as the `server-log` event carries it. */
export type ServerLogEvent = HostEvents['server-log'];
/** Progress of a running tool call, as the `tool-call-progress` event carries it. */
export type ToolCallProgressEvent = HostEvents['tool-call-progress'];

/**
 * The host's one emitter. A listener that throws never reaches the host's own code; `has` lets
 * the host skip building a payload nobody listens to.
 */
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

  /** Whether anyone listens to `event`. */
  has(event: keyof HostEvents): boolean {
    return (this.#listeners.get(event)?.size ?? 0) > 0;
  }

  /** Call every listener of `event`. */
  emit<K extends keyof HostEvents>(event: K, payload: HostEvents[K]): void {
    const set = this.#listeners.get(event);
    if (!set || set.size === 0) return;
    for (const listener of [...set]) {
      try {
        (listener as HostEventListener<K>)(payload);
      } catch {
        // A faulty listener must not break the host.
      }
    }
  }

  /** Remove every listener. */
  clear(): void {
    this.#listeners.clear();
  }
}
