/**
 * Every error code of every toolhost package, with what it means. This is the one code
 * namespace: a code means the same thing whichever package raises it, and each error class
 * lists the codes it can carry in its static `codes`. docs/errors.md is checked against this
 * object by a test, so the two never disagree.
 */
export const ERROR_CODES = {
  // --- Settings and configuration ------------------------------------------------------------
  /** A settings file is not valid JSON with comments; `line` and `column` point at the problem. */
  FILE_MALFORMED: 'A settings file is not valid JSON with comments; the error has the line and column.',
  /** A file exists but could not be read (a folder, no permission, an I/O error). */
  FILE_UNREADABLE: 'A file exists but could not be read (a folder, no permission, an I/O error).',
  /** A file could not be written (no permission, disk full, the folder cannot be created). */
  FILE_UNWRITABLE: 'A file could not be written (no permission, disk full, the folder cannot be created).',
  /** A settings value has the wrong JSON type (`args` is a string instead of a list). */
  INVALID_TYPE: 'A settings value has the wrong JSON type, such as `args` given as a string instead of a list.',
  /** A settings value has the right type but is not allowed (a negative `timeout`). */
  INVALID_VALUE: 'A settings value has the right type but is not allowed, such as a negative `timeout`.',
  /** A server entry has none of `command`, `url` or `httpUrl`. */
  MISSING_TRANSPORT: 'A server entry has none of `command`, `url` or `httpUrl`, so there is nothing to connect to.',
  /** A server name is empty or a reserved key, or (when adding a server) not made of letters, digits, `_`, `.`, `-` without `__`. */
  INVALID_SERVER_NAME:
    'A server name is empty or a reserved key (`__proto__`, `constructor`, `prototype`); a server being added must also use only letters, digits, `_`, `.` and `-`, without `__` or a trailing `_`.',
  /** A server entry's settings cannot be used for what was asked (an invalid URL, a bad OAuth setting). */
  INVALID_CONFIG: "A server entry's settings cannot be used for what was asked (an invalid URL, a bad OAuth setting).",
  /** Options passed to a toolhost function or class are inconsistent or incomplete. */
  INVALID_OPTIONS: 'Options passed to a toolhost function or class are inconsistent or incomplete.',
  /** Loading the settings files failed as a whole. */
  SETTINGS_LOAD_FAILED: 'Loading the settings files failed as a whole; `cause` says why.',
  /** A folder to trust or untrust does not exist. */
  FOLDER_NOT_FOUND: 'A folder to trust or untrust does not exist (or is not a folder).',
  /** Project scope was chosen while the project folder is the home folder. */
  PROJECT_SCOPE_IN_HOME: 'Project scope was chosen while the project folder is the home folder.',
  /** Project scope was chosen but no project folder was given. */
  PROJECT_DIR_MISSING: 'Project scope was chosen but no project folder was given.',

  // --- Servers and connections ---------------------------------------------------------------
  /** No server with this name is configured (in the scope asked for), or none fits the request. */
  SERVER_NOT_FOUND: 'No server with this name is configured (in the scope asked for), or no server fits the request.',
  /** The server is configured but not connected right now. */
  SERVER_NOT_CONNECTED: 'The server is configured but not connected right now.',
  /** The server is blocked (allow or exclude list, untrusted project folder) and is never started. */
  SERVER_BLOCKED: 'The server is blocked (by `mcp.allowed`, `mcp.excluded` or an untrusted project folder) and is never started.',
  /** The server is disabled and was not started. */
  SERVER_DISABLED: 'The server is disabled and was not started.',
  /** Two servers were configured with the same name. */
  DUPLICATE_SERVER_NAME: 'Two servers were configured with the same name.',
  /** The stdio `cwd` does not exist or is not a folder. */
  CWD_NOT_FOUND: 'The `cwd` of a stdio server does not exist or is not a folder (checked before starting it).',
  /** The stdio command could not be started (not found, not executable). */
  SPAWN_FAILED: 'The command of a stdio server could not be started (not found, not executable).',
  /** The server could not be reached or the MCP handshake failed. */
  CONNECT_FAILED: 'The server could not be reached, or the MCP handshake failed; `cause` says why.',
  /** The connection closed (the process exited, the HTTP server went away). */
  CONNECTION_CLOSED: 'The connection closed: the server process exited, or the HTTP server went away.',
  /** A server sent a message (stdio line, SSE event, JSON body) larger than the host's limit. */
  MESSAGE_TOO_LARGE:
    'A server sent a message (a stdio line, an SSE event or a JSON body) larger than the limit (`limits.maxMessageBytes`); the message names the server and the limit.',
  /** A remote server answered an HTTP error status that is not an authentication challenge. */
  HTTP_STATUS: 'A remote server answered an HTTP error status that is not an authentication challenge.',
  /** The server does not speak the MCP revision the client asked for (or the entry pinned). */
  PROTOCOL_VERSION_MISMATCH:
    'The server does not speak the MCP revision the client offered (or the entry pinned with `protocolVersion`); the message names the revisions on both sides.',
  /** A remote server answered 403 (for example `insufficient_scope`). */
  FORBIDDEN: 'A remote server answered 403 (for example `insufficient_scope`).',
  /** The server forgot the session and re-initializing once did not bring it back. */
  SESSION_EXPIRED: 'The server forgot the session, and initializing again once did not bring it back.',
  /** A Streamable HTTP server sent a session id that is not visible ASCII (0x21–0x7E). */
  INVALID_SESSION_ID:
    'A Streamable HTTP server sent an `Mcp-Session-Id` with characters outside visible ASCII (0x21–0x7E); the session was refused and the server not connected.',
  /** Connecting and discovering took longer than the server's timeout. */
  DISCOVERY_TIMEOUT: "Connecting to the server and discovering what it offers took longer than the server's timeout.",
  /** A list request failed with an error other than MethodNotFound. */
  LIST_FAILED: 'A list request (`tools/list`, `prompts/list`, `resources/list`) failed.',
  /** A list response repeated a cursor it had already returned. */
  PAGINATION_CURSOR_REPEATED: 'A list response repeated a cursor it had already returned.',
  /** A list kept returning pages past the page limit. */
  PAGINATION_LIMIT_EXCEEDED: 'A list kept returning pages past the page limit.',
  /** The server offers no tools, prompts or resources, so it was disconnected. */
  NOTHING_OFFERED: 'The server offers no tools, prompts or resources, so it was disconnected.',
  /** A connection pool closed an idle stdio server (after `idleMs`, or to make room under `maxProcesses`); it starts again on its next use. */
  CLOSED_BY_POOL:
    'A connection pool (`createConnectionPool`) closed an idle stdio server, after `idleMs` without a request or to make room under `maxProcesses`; its tools stay listed and it starts again on the next call that needs it.',
  /** Every stdio process a connection pool allows was busy and none became free in time. */
  CONNECTION_POOL_FULL:
    "Every one of a connection pool's `maxProcesses` stdio processes was busy with a request and none became idle within `acquireTimeoutMs`; the message names the server and the bound.",
  /** Reconnecting a server that went away failed every attempt. */
  RECONNECT_GAVE_UP: 'Reconnecting a server that went away failed every attempt.',
  /** The server does not declare the capability the request needs. */
  CAPABILITY_NOT_SUPPORTED: 'The server does not declare the capability the request needs (`logging`, `resources.subscribe`, ...).',
  /** Something was used after its `close()`. */
  CLOSED: 'The host (or the part of it that was asked) was used after `close()`; create a new one.',

  // --- Requests ------------------------------------------------------------------------------
  /** A request to a server did not answer in time (for a tool call: its timeout, or the overall cap). */
  REQUEST_TIMEOUT: 'A request to a server did not answer within its timeout (for a tool call: the server timeout or the overall cap).',
  /** The request was cancelled through its abort signal. */
  CANCELLED: 'The operation was cancelled through its abort signal.',
  /** The server answered a request with an error, or the request could not be delivered. */
  REQUEST_FAILED: 'The server answered a request with an error, or the request could not be delivered.',
  /** The server answered with something that cannot be used (a prompt with no text). */
  INVALID_RESPONSE: 'The server answered with something that cannot be used, such as a prompt with no text.',

  // --- Tools, prompts, commands, resources ---------------------------------------------------
  /** No registered tool has this name. */
  TOOL_NOT_FOUND: 'No registered tool has this name.',
  /** No registered prompt has this name. */
  PROMPT_NOT_FOUND: 'No registered prompt has this name.',
  /** No connected server lists this resource. */
  RESOURCE_NOT_FOUND: 'No connected server lists this resource.',
  /** No connected server lists a skill (Skills extension) under this name, or skills are not enabled. */
  SKILL_NOT_FOUND:
    'No connected server lists a skill under this name (or a file of it at this path), or the host was created without `skills`.',
  /** A skill file failed verification against its skill entry (size, digest or `SKILL.md` frontmatter); it was not loaded. */
  SKILL_VERIFICATION_FAILED:
    "A skill file read from a server does not match the server's skill entry (its size, its SHA-256 digest, or for `SKILL.md` its frontmatter); it was not loaded.",
  /** The model's arguments do not match the tool's input schema; the server was not called. */
  INVALID_TOOL_ARGUMENTS:
    "The model's arguments do not match the tool's input schema (or are not a JSON object); the server was not called.",
  /** The tool ran and reported `isError: true`. */
  TOOL_REPORTED_ERROR: 'The tool ran and reported an error (`isError: true`).',
  /** The per-call `meta` or `headers` of a tool call cannot be sent; the server was not called. */
  INVALID_CALL_OPTIONS:
    'The per-call `meta` or `headers` of a tool call cannot be sent (a reserved key or header, a malformed header, or headers for a server that is not Streamable HTTP); the server was not called.',
  /** The tool can only run as a task (`execution.taskSupport: "required"`) and the host does not use tasks. */
  TASK_REQUIRED:
    'The tool can only run as a task (`execution.taskSupport: "required"`), and the host was created without the `tasks` option; the server was not called.',
  /** A task-based tool call ended without a result (the server reported it failed or cancelled it, or forgot it). */
  TASK_FAILED:
    'A tool call the server ran as a task ended without a result: the server reported the task `failed`, cancelled it, or no longer knows it (expired); the message names the server, tool and task.',
  /** No outstanding task with this server and id is kept by the host. */
  TASK_NOT_FOUND:
    'No outstanding task with this server name and task id is kept by the host: it finished, expired, or was never started here.',
  /** No stored tool result has this id (expired, evicted to make room, deleted, or never made by this store). */
  RESULT_NOT_FOUND:
    'No stored tool result has this id: it expired, was removed to make room for newer results, was deleted, or the id was never given out by this store (a mistyped or made-up id). Call the tool again for a fresh result.',
  /** A tool result is larger than a result store keeps for one entry (`maxEntryBytes`). */
  RESULT_TOO_LARGE:
    'A full tool result is larger than the result store keeps for one entry (`maxEntryBytes`), so it was not stored and cannot be paged through; the message names the size and the limit.',
  /** A tool-call interceptor of the host refused the call or threw. */
  INTERCEPTOR_FAILED: 'A tool-call interceptor (`interceptors` host option) refused the call or threw; the error names the interceptor.',
  /** A slash command line could not be parsed. */
  INVALID_SLASH_COMMAND: 'A slash command line could not be parsed.',
  /** No slash command (prompt or built-in) has this name. */
  COMMAND_NOT_FOUND: 'No slash command (prompt or built-in) has this name.',
  /** A prompt was invoked without all of its required arguments. */
  MISSING_PROMPT_ARGUMENTS: 'A prompt was invoked without all of its required arguments (see `missingArguments`).',
  /** A project folder could not be turned into a `file://` root. */
  INVALID_ROOT: 'A project folder could not be turned into a `file://` root.',

  // --- Confirmation ---------------------------------------------------------------------------
  /** The call needs the user's confirmation, but the host cannot ask (no `confirm` hook). */
  CONFIRMATION_REQUIRED: "The call needs the user's confirmation, but the host cannot ask (it has no `confirm` hook).",
  /** The user declined the call. */
  TOOL_CALL_DENIED: 'The user declined the call.',
  /** The host's policy refused the call. */
  DENIED_BY_POLICY: "The host's policy refused the call.",
  /** The `confirm` hook answered with something that is not one of the offered options. */
  INVALID_CONFIRMATION_ANSWER:
    'The `confirm` hook answered with something that is not one of the offered options (an option id or option object).',
  /** The `confirm` hook threw or rejected. */
  CONFIRMATION_FAILED: 'The `confirm` hook threw or rejected; `cause` is what it threw.',
  /** `host.confirmations.answer()` named a tool call that is not waiting for the user (unknown, already answered, or ended). */
  CONFIRMATION_NOT_PENDING:
    'A confirmation answer named a tool call that is not waiting for the user: the id is unknown, the call was already answered, or it ended.',
  /** A call needed confirmation while another call with the same tool call id was waiting for it. */
  DUPLICATE_TOOL_CALL_ID:
    'A tool call needed confirmation while another call with the same tool call id was already waiting; the second call was not run.',
  /** A store (approvals, tokens) could not be read or written. */
  STORE_FAILED: 'A store (approvals, OAuth tokens) could not be read or written.',
  /** A value of a shared store could not be decrypted: its key id is not configured, the key is wrong, or the value was altered or moved. */
  STORE_DECRYPT_FAILED:
    "A value of a shared store (`@toolhost/stores`) could not be decrypted: it was encrypted with a key id that is not configured, the key given for that id is not the one it was encrypted with, or the value was altered or copied from another user's or another key's place; the message names the key id. Nothing is read in plain text instead.",
  /** A lock shared by every instance using a store could not be taken in time. */
  STORE_LOCK_TIMEOUT:
    'A lock shared by every instance using a store (`@toolhost/stores`: Redis, PostgreSQL or SQLite) could not be taken in time, because another instance held it; the message names the lock and the wait.',

  // --- OAuth ----------------------------------------------------------------------------------
  /** The server needs the user to sign in (or to grant more scopes) and no sign-in may start now. */
  AUTH_REQUIRED: 'The server needs the user to sign in (or to grant more scopes), and the host may not start a sign-in now.',
  /** A URL learned from a server was refused by the URL guard. */
  UNSAFE_URL: 'A URL learned from a server (or given to the browser opener) was refused by the URL guard.',
  /** The protected-resource metadata names a different resource than the server being accessed. */
  RESOURCE_MISMATCH: 'The protected-resource metadata names a different resource than the server being accessed.',
  /** No usable protected-resource or authorization-server metadata was found. */
  DISCOVERY_FAILED: 'No usable protected-resource or authorization-server metadata was found.',
  /** Metadata was found but is not usable. */
  INVALID_METADATA: 'OAuth metadata was found but is not usable (missing endpoints, wrong response types, bad JSON).',
  /** The authorization server does not advertise PKCE S256. */
  PKCE_UNSUPPORTED: 'The authorization server does not advertise PKCE S256 support.',
  /** No client id is configured and no way to get one exists. */
  NO_CLIENT_REGISTRATION: 'No OAuth client id is configured, and neither a client metadata document nor dynamic registration is possible.',
  /** Dynamic client registration was refused. */
  REGISTRATION_FAILED: 'Dynamic client registration was refused by the authorization server.',
  /** The authorization server redirected back with an `error`. */
  AUTHORIZATION_DENIED: 'The authorization server redirected back with an `error` parameter.',
  /** The OAuth callback carried a `state` that does not match. */
  STATE_MISMATCH: 'The OAuth callback carried a `state` that does not match the one sent.',
  /** An issuer is missing or names another authorization server (mix-up attack). */
  ISSUER_MISMATCH: 'An issuer is missing or names another authorization server (RFC 9207 mix-up protection).',
  /** No OAuth callback arrived in time. */
  CALLBACK_TIMEOUT: 'No OAuth callback arrived in time.',
  /** The loopback callback server could not listen on its port. */
  CALLBACK_PORT_IN_USE: 'The loopback OAuth callback server could not listen on its port.',
  /** The authorization code could not be exchanged for tokens. */
  TOKEN_EXCHANGE_FAILED: 'The authorization code could not be exchanged for tokens.',
  /** A stored token could not be refreshed. */
  REFRESH_FAILED: 'A stored token could not be refreshed.',
  /** A step-up (signing in again for more scopes) failed. */
  STEP_UP_FAILED: 'Signing in again for more scopes (step-up) failed; `cause` is the OAuth error.',
  /** The server kept answering `insufficient_scope` after a step-up. */
  STEP_UP_LIMIT: 'The server still answered `insufficient_scope` after a step-up; the request is not retried again.',
  /** The browser could not be opened. */
  BROWSER_OPEN_FAILED: 'The browser could not be opened.',
  /** The authorization server does not support the configured grant type. */
  GRANT_TYPE_UNSUPPORTED: 'The authorization server does not support the configured `grantType`.',
  /** The enterprise IdP refused the ID-JAG token exchange. */
  ID_JAG_EXCHANGE_FAILED: 'The enterprise identity provider refused to exchange the ID token for an ID-JAG (RFC 8693).',
  /** Google credentials could not produce a token. */
  GOOGLE_AUTH_FAILED: 'Google credentials could not produce a token.',

  // --- Schemas and model adapters -------------------------------------------------------------
  /** A schema has more nodes than allowed (or is a cyclic object graph). */
  SCHEMA_TOO_LARGE: 'A schema has more nodes than allowed (or is a cyclic JavaScript object graph).',
  /** A schema profile name is not known. */
  UNKNOWN_PROFILE: 'A schema profile name is not one of the known profiles.',
  /** A model response holds a tool call that cannot be matched to a tool (no name). */
  INVALID_TOOL_CALL: 'A model response holds a tool call that cannot be used (it has no name).',
  /** A streamed tool call's arguments grew past the adapter's limit (`maxArgumentsLength`). */
  TOOL_ARGUMENTS_TOO_LARGE:
    "A streamed tool call's arguments grew past the limit (`maxArgumentsLength`, 1 MiB of text by default); the message names the tool and the limit.",
  /** A streamed model response ended before it was complete, or the vendor reported an error inside the stream. */
  INCOMPLETE_STREAM:
    'A streamed model response ended before it was complete (cut off, aborted, or the vendor reported an error inside the stream), so its tool calls were not run; the message says what was missing.',
  /** A sampling request got no text back from the model. */
  EMPTY_SAMPLING_RESPONSE: 'A sampling request got no text back from the model (blocked, empty or filtered).',
  /** Tool declarations would break a hard limit of the model vendor (tool count, name, schema size); nothing was sent. */
  VENDOR_LIMIT_EXCEEDED:
    "Tool declarations would break a hard limit of the model vendor (more tools than it accepts in one request, a tool name it rejects, a schema or a request too large), so the adapter's `toTools` refused to build them and nothing was sent; the message names the limit (also in the error's `limit`), the vendor, the count or size, and what to do (turn on tool search, offer fewer tools).",
  /** A model adapter implements another version of the `ModelAdapter` contract. */
  UNSUPPORTED_ADAPTER: 'The model adapter implements a version of the `ModelAdapter` contract this host does not support.',

  // --- Command line ---------------------------------------------------------------------------
  /** The command line does not match the command. */
  USAGE: 'The command line does not match the command (unknown option, missing argument, malformed value).',
  /** `toolhost mcp auth` was asked for a local (stdio) server. */
  NOT_A_REMOTE_SERVER: 'OAuth was asked for a local (stdio) server; it applies to remote servers only.',
  /** `toolhost mcp auth` was asked for a server whose credentials need no browser sign-in. */
  NO_BROWSER_SIGN_IN: 'The server uses credentials (Google) that need no browser sign-in.',
  /** An environment variable the program reads has a value it does not accept. */
  INVALID_ENVIRONMENT: 'An environment variable the program reads has a value it does not accept.',
} as const;

/** One stable error code; see {@link ERROR_CODES} for what each means. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** True when `value` is one of the {@link ERROR_CODES}. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CODES, value);
}
