import type { Client, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { escapeControlText, type UiHooks } from '@toolhost/contract';
import { applyElicitationDefaults, describeElicitationForm } from './elicitation-form.js';
import { readElicitationUrl } from './url-elicitation.js';

/** Shows an elicitation to the user and returns the answer. */
export type ElicitationHook = NonNullable<UiHooks['elicit']>;

/** Options of {@link createElicitationHandler} and {@link registerElicitation}. */
export interface ElicitationOptions {
  /** The server the client is connected to. */
  readonly serverName: string;
  /** The UI hook; without one every elicitation is answered `cancel`. */
  readonly elicit?: ElicitationHook | undefined;
  /** Called when the server reports a URL-mode elicitation complete. */
  readonly onComplete?: ((event: { serverName: string; elicitationId: string }) => void) | undefined;
}

type ElicitParams = ElicitRequest['params'];

/**
 * Builds the handler that answers `elicitation/create`. The server's message reaches the hook
 * with control, BiDi and zero-width characters written as visible `\uXXXX` escapes. Form mode:
 * the hook sees the fields (titles, descriptions and option labels escaped the same way) with
 * their defaults; accepted content gets every omitted default filled in. URL mode: the hook sees
 * the full URL, its domain and, for a punycode or mixed-script host, `hostWarning`; a URL that is
 * not http(s) is declined without asking. No hook: `cancel`.
 */
export function createElicitationHandler(
  options: ElicitationOptions,
): (request: ElicitRequest, extra: { signal: AbortSignal }) => Promise<ElicitResult> {
  const { serverName } = options;
  return async (request, extra) => {
    const params: ElicitParams = request.params;
    if (!options.elicit) return { action: 'cancel' };
    if (params.mode === 'url') {
      const target = readElicitationUrl(params.url);
      if (target === undefined) return { action: 'decline' };
      const answer = await options.elicit({
        mode: 'url',
        serverName,
        message: escapeControlText(params.message),
        ...target,
        elicitationId: params.elicitationId,
        signal: extra.signal,
      });
      return { action: answer.action };
    }
    const requestedSchema = params.requestedSchema as Readonly<Record<string, unknown>>;
    const answer = await options.elicit({
      mode: 'form',
      serverName,
      message: escapeControlText(params.message),
      requestedSchema,
      fields: describeElicitationForm(requestedSchema),
      defaults: applyElicitationDefaults(requestedSchema, {}),
      signal: extra.signal,
    });
    if (answer.action !== 'accept') return { action: answer.action };
    return {
      action: 'accept',
      content: applyElicitationDefaults(requestedSchema, answer.content) as ElicitResult['content'],
    };
  };
}

/**
 * Installs {@link createElicitationHandler} and the `notifications/elicitation/complete` handler
 * on a client constructed with the `elicitation` capability (see `createClientFeatures`).
 */
export function registerElicitation(client: Client, options: ElicitationOptions): void {
  const handler = createElicitationHandler(options);
  client.setRequestHandler('elicitation/create', (request, ctx) => handler(request, { signal: ctx.mcpReq.signal }));
  client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
    options.onComplete?.({ serverName: options.serverName, elicitationId: notification.params.elicitationId });
  });
}
