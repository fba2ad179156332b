import { lookup as dnsLookup } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { PushNotificationConfig, Task } from '@a2a-js/sdk';
import type { PushNotificationSender, PushNotificationStore } from '@a2a-js/sdk/server';
import { isPrivateAddress } from '@toolhost/oauth';

/** Which webhook addresses push notifications may go to. */
export interface WebhookPolicy {
  /** Allow loopback addresses (`127.0.0.0/8`, `::1`, `localhost`): a client on the same machine. @default false */
  readonly allowLoopback?: boolean;
  /** Allow every private, link-local and otherwise non-public address. Never on a shared network. @default false */
  readonly allowPrivateNetwork?: boolean;
}

const LOOPBACK = /^(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARACTERS = /[\u0000-\u0020\u007f-\u009f\u2028\u2029]/;

/** Why `address` may not receive push notifications under `policy`; undefined when it may. */
function addressRefusal(address: string, policy: WebhookPolicy): string | undefined {
  if (policy.allowPrivateNetwork) return undefined;
  if (LOOPBACK.test(address)) return policy.allowLoopback ? undefined : `it is a loopback address (${address})`;
  return isPrivateAddress(address) ? `it is a private, link-local or non-public address (${address})` : undefined;
}

/**
 * Why the webhook URL is refused, in words for the client; undefined when it is acceptable:
 * an absolute `http:` or `https:` URL without credentials, whose host (every address it
 * resolves to) is public, or loopback when `allowLoopback`, or anything with `allowPrivateNetwork`.
 */
export async function checkWebhookUrl(raw: unknown, policy: WebhookPolicy): Promise<string | undefined> {
  if (typeof raw !== 'string' || raw.length === 0) return 'the url is not a string';
  if (raw.length > 2048) return 'the url is longer than 2048 characters';
  if (UNSAFE_CHARACTERS.test(raw)) return 'the url contains whitespace or control characters';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'the url is not an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `the scheme ${url.protocol} is not http or https`;
  if (url.username || url.password) return 'the url carries user credentials';
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: string[];
  if (isIP(hostname)) addresses = [hostname];
  else {
    try {
      addresses = (
        await new Promise<{ address: string }[]>((resolve, reject) =>
          dnsLookup(hostname, { all: true, verbatim: true }, (error, found) => (error ? reject(error) : resolve(found))),
        )
      ).map((entry) => entry.address);
    } catch {
      return `its host name ${hostname} does not resolve`;
    }
  }
  if (addresses.length === 0) return `its host name ${hostname} does not resolve`;
  for (const address of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal) return refusal;
  }
  return undefined;
}

/** Options of {@link GuardedPushNotificationSender}. */
export interface GuardedPushNotificationSenderOptions extends WebhookPolicy {
  /** Where the configurations are. */
  readonly store: PushNotificationStore;
  /** Time allowed for one POST, in milliseconds. @default 5000 */
  readonly timeoutMs?: number;
  /** Told about each notification that could not be delivered (the server never prints). */
  readonly onError?: (error: Error) => void;
}

/** The header that carries a configuration's `token` (the SDK's default name). */
export const NOTIFICATION_TOKEN_HEADER = 'X-A2A-Notification-Token';

/**
 * Notifications of one task waiting behind the one being sent. Each carries the whole task, so
 * when a webhook is slower than the task's updates the oldest waiting ones are skipped: the
 * newest state always goes out, and memory stays bounded.
 */
export const MAX_QUEUED_NOTIFICATIONS = 32;

/** The notifications of one task: sent one at a time, in order. */
interface TaskQueue {
  readonly waiting: Array<{ readonly configs: PushNotificationConfig[]; readonly body: string }>;
  /** Resolves once the queue is empty. */
  done: Promise<void>;
  /** Whether the webhook owner was told that notifications were skipped. */
  toldSkipped: boolean;
}

/**
 * Sends the task, as JSON, to every webhook configured for it, one notification at a time per
 * task (in order; at most {@link MAX_QUEUED_NOTIFICATIONS} wait, the oldest waiting ones are
 * skipped beyond that). The connection goes only to addresses the {@link WebhookPolicy} accepts: the
 * host name is resolved at connection time through a lookup that refuses the others, so a DNS
 * answer that changed since the configuration was accepted cannot reach the local network.
 * Redirects are not followed. A configuration's `token` travels in `X-A2A-Notification-Token`,
 * and `authentication` with a `Bearer` scheme and `credentials` as `Authorization: Bearer …`.
 */
export class GuardedPushNotificationSender implements PushNotificationSender {
  readonly #options: GuardedPushNotificationSenderOptions;
  readonly #queues = new Map<string, TaskQueue>();

  /** Create a sender over `options.store`. */
  constructor(options: GuardedPushNotificationSenderOptions) {
    this.#options = options;
  }

  /** Queue one notification of `task` to each of its webhooks; resolves once the task's queue is empty. */
  async send(task: Task): Promise<void> {
    const configs = await this.#options.store.load(task.id);
    if (configs.length === 0) return;
    const body = JSON.stringify(task);
    const running = this.#queues.get(task.id);
    if (running) {
      running.waiting.push({ configs, body });
      const skipped = running.waiting.length - MAX_QUEUED_NOTIFICATIONS;
      if (skipped > 0) {
        running.waiting.splice(0, skipped);
        if (!running.toldSkipped) {
          running.toldSkipped = true;
          this.#options.onError?.(
            new Error(
              `Push notifications for task ${task.id}: the webhook is slower than the task's updates; older updates are skipped (the newest state is sent).`,
            ),
          );
        }
      }
      return running.done;
    }
    const queue: TaskQueue = { waiting: [{ configs, body }], done: Promise.resolve(), toldSkipped: false };
    this.#queues.set(task.id, queue);
    queue.done = this.#work(task.id, queue);
    return queue.done;
  }

  /** Wait until every queued notification was sent (or failed). */
  async drain(): Promise<void> {
    while (this.#queues.size > 0) await Promise.all([...this.#queues.values()].map((queue) => queue.done));
  }

  async #work(taskId: string, queue: TaskQueue): Promise<void> {
    // Let `send` return the promise before the first POST starts.
    await Promise.resolve();
    try {
      for (let next = queue.waiting.shift(); next; next = queue.waiting.shift()) {
        const { configs, body } = next;
        await Promise.all(
          configs.map((config) =>
            this.#post(config, body).catch((error: unknown) => {
              this.#options.onError?.(
                new Error(
                  `Push notification for task ${taskId} to ${String(config.url).slice(0, 200)} failed: ${error instanceof Error ? error.message : String(error)}`,
                  { cause: error },
                ),
              );
            }),
          ),
        );
      }
    } finally {
      this.#queues.delete(taskId);
    }
  }

  #post(config: PushNotificationConfig, body: string): Promise<void> {
    const url = new URL(config.url);
    const policy = this.#options;
    const lookup: LookupFunction = (hostname, options, callback) => {
      dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
        if (error) return callback(error, '', 0);
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const allowed = addresses.filter(
          (entry) => (wanted === undefined || entry.family === wanted) && !addressRefusal(entry.address, policy),
        );
        const refused = addresses.find((entry) => addressRefusal(entry.address, policy));
        if (refused || allowed.length === 0) {
          const failure: NodeJS.ErrnoException = new Error(
            refused ? `refused: ${addressRefusal(refused.address, policy)}` : `no usable address for ${hostname}`,
          );
          failure.code = 'ENOTFOUND';
          return callback(failure, '', 0);
        }
        if (options.all) return callback(null, allowed);
        const first = allowed[0]!;
        return callback(null, first.address, first.family);
      });
    };
    const literal = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    if (isIP(literal)) {
      const refusal = addressRefusal(literal, policy);
      if (refusal) return Promise.reject(new Error(`refused: ${refusal}`));
    }
    const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    if (config.token) headers[NOTIFICATION_TOKEN_HEADER] = config.token;
    const auth = config.authentication;
    if (auth?.credentials && auth.schemes.some((scheme) => scheme.toLowerCase() === 'bearer')) {
      headers['authorization'] = `Bearer ${auth.credentials}`;
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<void>((resolve, reject) => {
      const request = send(
        url,
        { method: 'POST', headers, lookup, timeout: this.#options.timeoutMs ?? 5000 },
        (response: IncomingMessage) => {
          response.resume();
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else reject(new Error(`the webhook answered HTTP ${status}`));
        },
      );
      request.on('timeout', () => request.destroy(new Error(`no answer within ${this.#options.timeoutMs ?? 5000} ms`)));
      request.on('error', reject);
      request.end(body);
    });
  }
}
