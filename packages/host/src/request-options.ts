/** Options of a request the host sends on the user's behalf. */
export interface RequestOptions {
  /** Aborts the request. */
  readonly signal?: AbortSignal;
}
