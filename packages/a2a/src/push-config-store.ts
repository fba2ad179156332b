import type { PushNotificationConfig } from '@a2a-js/sdk';
import type { PushNotificationStore } from '@a2a-js/sdk/server';

/** Push notification configurations one task may have. */
export const MAX_PUSH_CONFIGS_PER_TASK = 16;

/**
 * The push notification configurations of the tasks, in memory: at most
 * {@link MAX_PUSH_CONFIGS_PER_TASK} per task (the server refuses more before saving), and those of
 * a task go when the task store forgets it.
 */
export class PushConfigStore implements PushNotificationStore {
  readonly #configs = new Map<string, PushNotificationConfig[]>();

  /** Add or replace (same `id`; the id defaults to the task id) a configuration of `taskId`. */
  async save(taskId: string, config: PushNotificationConfig): Promise<void> {
    const id = config.id ?? taskId;
    const kept = (this.#configs.get(taskId) ?? []).filter((entry) => entry.id !== id);
    kept.push({ ...config, id });
    // The server refused this configuration already when the task had its fill; two racing
    // requests may still get here, and the oldest configuration makes room.
    this.#configs.set(taskId, kept.slice(-MAX_PUSH_CONFIGS_PER_TASK));
  }

  /** The configurations of `taskId`. */
  async load(taskId: string): Promise<PushNotificationConfig[]> {
    return [...(this.#configs.get(taskId) ?? [])];
  }

  /** Delete one configuration (`configId` defaults to the task id). */
  async delete(taskId: string, configId?: string): Promise<void> {
    const id = configId ?? taskId;
    const kept = (this.#configs.get(taskId) ?? []).filter((entry) => entry.id !== id);
    if (kept.length === 0) this.#configs.delete(taskId);
    else this.#configs.set(taskId, kept);
  }

  /** Whether saving a configuration with this id would go over the per-task limit. */
  isFull(taskId: string, configId: string | undefined): boolean {
    const configs = this.#configs.get(taskId) ?? [];
    const id = configId ?? taskId;
    return configs.length >= MAX_PUSH_CONFIGS_PER_TASK && !configs.some((entry) => entry.id === id);
  }

  /** Forget every configuration of a task. */
  forget(taskId: string): void {
    this.#configs.delete(taskId);
  }
}
