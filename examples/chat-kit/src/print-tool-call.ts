import type { ToolCall } from '@toolhost/host';
import type { Terminal } from './terminal.js';

/** Print the interesting steps of a tool call's lifecycle (`EXECUTING` and the final state). */
export function printToolCall(terminal: Terminal, toolCall: ToolCall): void {
  const name = toolCall.serverName ? `${toolCall.serverName} › ${toolCall.serverToolName ?? toolCall.toolName}` : toolCall.toolName;
  if (toolCall.status === 'EXECUTING') {
    terminal.print(toolCall.liveContent ? `  … ${name}: ${toolCall.liveContent}` : `  … running ${name}`);
  } else if (toolCall.status === 'SUCCEEDED') {
    terminal.print(`  ✓ ${name}: ${toolCall.output?.text ?? ''}`);
  } else if (toolCall.status === 'FAILED' || toolCall.status === 'CANCELLED') {
    terminal.print(`  ✗ ${name} ${toolCall.status.toLowerCase()}: ${toolCall.error?.message ?? ''}`);
  }
}
