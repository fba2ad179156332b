/**
 * What the user chose when asked whether a tool may run, with the effect of each:
 * - `ProceedOnce`: run this call; nothing is remembered.
 * - `ProceedAlwaysTool`: run, and add `serverName.toolName` to the allow-list, pinned to the
 *   tool's current definition.
 * - `ProceedAlwaysServer`: run, and add `serverName` to the allow-list (every tool of the
 *   server; each tool's definition is pinned when it is first used under this approval).
 * - `Cancel`: do not run; nothing is remembered.
 */
export const ConfirmationOutcome = {
  /** Run this call only. */
  ProceedOnce: 'proceed_once',
  /** Run and always allow this tool (while its definition stays the same). */
  ProceedAlwaysTool: 'proceed_always_tool',
  /** Run and always allow every tool of this server (while each tool's definition stays the same). */
  ProceedAlwaysServer: 'proceed_always_server',
  /** Do not run the tool. */
  Cancel: 'cancel',
} as const;

/** One of the values of {@link ConfirmationOutcome}. */
export type ConfirmationOutcome = (typeof ConfirmationOutcome)[keyof typeof ConfirmationOutcome];

/** Every outcome, in the order a dialog offers them. */
export const CONFIRMATION_OUTCOMES: readonly ConfirmationOutcome[] = [
  ConfirmationOutcome.ProceedOnce,
  ConfirmationOutcome.ProceedAlwaysTool,
  ConfirmationOutcome.ProceedAlwaysServer,
  ConfirmationOutcome.Cancel,
];

/** True when `value` is one of the {@link ConfirmationOutcome} values. */
export function isConfirmationOutcome(value: unknown): value is ConfirmationOutcome {
  return typeof value === 'string' && (CONFIRMATION_OUTCOMES as readonly string[]).includes(value);
}
