import type { ConfirmationAnswer, ConfirmationRequest } from './confirmation.js';
import type { SamplingRequest, SamplingResponse } from './model-adapter.js';

/** One choice of an elicitation enum field: the value sent back and the label shown. */
export interface ElicitationOption {
  /** The value sent back to the server, exactly as the server gave it (do not print it unescaped). */
  readonly value: string;
  /**
   * The label to show (the `title`, a legacy `enumNames` entry, or the value itself), with
   * control, BiDi and zero-width characters written as visible `\uXXXX` escapes.
   */
  readonly label: string;
}

/** One field of an elicitation form, normalised so a UI can render it without reading JSON Schema. */
export interface ElicitationField {
  /** The property name (the key in the returned content), exactly as the server gave it: show `title`. */
  readonly name: string;
  /** What to render: a text box, a number box, a checkbox, or a single or multiple choice. */
  readonly kind: 'string' | 'number' | 'integer' | 'boolean' | 'single-select' | 'multi-select';
  /** Label for the field (`title`, else the property name), control, BiDi and zero-width characters escaped. */
  readonly title: string;
  /** Help text, when the schema gives one, control, BiDi and zero-width characters escaped. */
  readonly description?: string;
  /** True when the schema lists the field in `required`. */
  readonly required: boolean;
  /** The schema's default, already filled into the form's initial values. */
  readonly default?: unknown;
  /** String format (`email`, `uri`, `date`, `date-time`), when given (control characters escaped). */
  readonly format?: string;
  /** Lower numeric bound, or shortest string length, when given. */
  readonly minimum?: number;
  /** Upper numeric bound, or longest string length, when given. */
  readonly maximum?: number;
  /** For multi-select: fewest choices allowed, when given. */
  readonly minItems?: number;
  /** For multi-select: most choices allowed, when given. */
  readonly maxItems?: number;
  /** Choices of a single- or multi-select field. */
  readonly options?: readonly ElicitationOption[];
}

/** A form-mode elicitation: the server asks the user to fill in a flat form. */
export interface FormElicitationRequest {
  /** Form mode. */
  readonly mode: 'form';
  /** The server that asks. */
  readonly serverName: string;
  /**
   * What the server says to the user (untrusted text), on one line: control characters (ESC,
   * BEL, CR, LF...), BiDi overrides and isolates and zero-width characters are written as
   * visible `\uXXXX` escapes, so the message cannot clear the screen, set the window title,
   * reorder what is shown or forge log lines.
   */
  readonly message: string;
  /** The schema exactly as the server sent it (untrusted: render `fields`, which are escaped). */
  readonly requestedSchema: Readonly<Record<string, unknown>>;
  /** The schema as fields ready to render. */
  readonly fields: readonly ElicitationField[];
  /** Initial values: the schema's defaults. */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** Aborted when the server cancels the request or the connection closes. */
  readonly signal: AbortSignal;
}

/** A URL-mode elicitation: the server asks the user to complete a flow in a browser. */
export interface UrlElicitationRequest {
  /** URL mode. */
  readonly mode: 'url';
  /** The server that asks. */
  readonly serverName: string;
  /**
   * What the server says to the user (untrusted text), on one line: control, BiDi and
   * zero-width characters are written as visible `\uXXXX` escapes (as in form mode).
   */
  readonly message: string;
  /**
   * The URL to offer, in full; never opened without the user's consent. It is the URL as the
   * URL parser normalises it: a non-ASCII host name in punycode (`xn--…`) and every other
   * character that is not plain ASCII percent-encoded, so it holds no control characters. Show
   * it whole, not shortened to its host.
   */
  readonly url: string;
  /** The URL's host name (ASCII, punycode for an internationalised name), to show the user where the link leads. */
  readonly domain: string;
  /**
   * Set when the host name may imitate another site: it is an internationalised (punycode,
   * `xn--`) name, or one of its labels mixes scripts (Latin with Cyrillic or Greek letters...).
   * Says what the name reads as once decoded and which scripts it mixes (escaped). Show it
   * prominently next to the URL before the user decides; absent for a plain ASCII host.
   */
  readonly hostWarning?: string;
  /** The server's id of this elicitation. */
  readonly elicitationId: string;
  /** Aborted when the server cancels the request or the connection closes. */
  readonly signal: AbortSignal;
}

/** What the `elicit` hook is asked. */
export type ElicitationRequest = FormElicitationRequest | UrlElicitationRequest;

/** The user's answer to an elicitation: `accept` (with the form's values in form mode), `decline`, or `cancel`. */
export type ElicitationResponse =
  | { readonly action: 'accept'; readonly content?: Readonly<Record<string, unknown>> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** What the `approveSampling` hook is asked. */
export interface SamplingApprovalRequest {
  /** The server that asked for a model completion. */
  readonly serverName: string;
  /** The request, in the adapter's form (what the model would see). */
  readonly request: SamplingRequest;
  /** Aborted when the server cancels the request or the connection closes. */
  readonly signal: AbortSignal;
}

/** What the `reviewSamplingResult` hook is asked. */
export interface SamplingResultReview {
  /** The server that asked. */
  readonly serverName: string;
  /** The request that was sent to the model. */
  readonly request: SamplingRequest;
  /** The model's answer. */
  readonly response: SamplingResponse;
  /** Aborted when the server cancels the request. */
  readonly signal: AbortSignal;
}

/** The user's answer to a sampling request (or to its result). */
export type SamplingApprovalDecision<T = SamplingRequest> =
  /** Send it as it is. */
  | { readonly action: 'approve' }
  /** Send this edited version instead. */
  | { readonly action: 'edit'; readonly value: T }
  /** Refuse; the server receives an error with `reason` in the message. */
  | { readonly action: 'deny'; readonly reason?: string };

/**
 * How the host asks the person using it. Every hook only asks a question and returns the
 * answer; what happens (tool-call updates, status changes, progress) arrives as host events.
 * Every hook is optional: a host without `confirm` is non-interactive and refuses every call
 * that needs confirmation with `CONFIRMATION_REQUIRED`, saying how to allow the tool.
 *
 * @example
 * ```ts
 * const ui: UiHooks = {
 *   // Answer with an option's id, or with the option itself.
 *   confirm: async (request) => request.options.find((option) => option.id === 'proceed_once') ?? 'cancel',
 * };
 * ```
 */
export interface UiHooks {
  /**
   * May this tool run? Answer with one of `request.options` (its `id` or the object itself).
   * Any other answer fails the call with `INVALID_CONFIRMATION_ANSWER`; a hook that throws
   * fails it with `CONFIRMATION_FAILED`. When `signal` aborts, the call is cancelled, or it was
   * answered another way (`host.confirmations.answer()`): close the dialog, the answer is not used.
   */
  confirm?(request: ConfirmationRequest, options: { readonly signal?: AbortSignal }): Promise<ConfirmationAnswer>;
  /** Open a URL in the user's browser (OAuth sign-in). A safe default opener is used when absent. */
  openBrowser?(url: string): void | Promise<void>;
  /** Show a server's elicitation (form or URL); without it every elicitation is answered `cancel`. */
  elicit?(request: ElicitationRequest): Promise<ElicitationResponse>;
  /** May a server use the host's model (sampling)? Without it, sampling is declined. */
  approveSampling?(request: SamplingApprovalRequest): Promise<SamplingApprovalDecision>;
  /** May the generated answer go back to the server? Without it, it goes back unreviewed. */
  reviewSamplingResult?(review: SamplingResultReview): Promise<SamplingApprovalDecision<SamplingResponse>>;
}
