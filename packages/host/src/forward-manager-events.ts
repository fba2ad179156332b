import type { McpServerManager } from '@toolhost/discovery';
import type { HostEventEmitter } from './host-events.js';
import type { UiHooks } from './ui-hooks.js';

/** Re-emit discovery's events as host events, and call the matching UI hooks. */
export function forwardManagerEvents(options: {
  readonly manager: McpServerManager;
  readonly events: HostEventEmitter;
  readonly ui: UiHooks;
}): void {
  const { manager, events, ui } = options;
  manager.on('server-status-change', (change) => {
    const event = {
      serverName: change.serverName,
      status: change.status,
      previousStatus: change.previousStatus,
      ...(change.error ? { error: change.error.message } : {}),
    };
    events.emit('server-status-change', event);
    ui.onStatusChange?.(event);
  });
  manager.on('discovery-state-change', ({ state }) => events.emit('discovery-state-change', { state }));
  manager.on('tools-change', () => events.emit('registry-change', { kind: 'tools' }));
  manager.on('prompts-change', () => events.emit('registry-change', { kind: 'prompts' }));
  manager.on('resources-change', () => events.emit('registry-change', { kind: 'resources' }));
}
