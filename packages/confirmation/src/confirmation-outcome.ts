import { CONFIRMATION_OPTIONS, type ConfirmationOutcome } from '@toolhost/contract';

/** True when `value` is the id of one of the {@link CONFIRMATION_OPTIONS}. */
export function isConfirmationOutcome(value: unknown): value is ConfirmationOutcome {
  return CONFIRMATION_OPTIONS.some((option) => option.id === value);
}
