import { streamedArgumentChecks } from '@toolhost/contract';

// The checks shared by every adapter's stream accumulator, with this adapter's provider name.
export const { checkArgumentsLength, incompleteStream, parseStreamedArguments, resolveMaxArgumentsLength } =
  streamedArgumentChecks('gemini');
