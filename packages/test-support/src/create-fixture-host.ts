import { fixtureBinPath, type FixtureBehaviour } from '@toolhost-internal/fixtures';
import { McpToolHost, type ConfirmationRequest, type McpToolHostOptions, type ModelAdapter } from '@toolhost/host';

/** Which fixture server {@link createFixtureHost} starts. */
export interface FixtureServer {
  /** The fixture behaviour. @default 'basic' */
  readonly behaviour?: FixtureBehaviour;
  /** Command-line knobs of the fixture (`--pages=1`, `--page-size=129`...). */
  readonly args?: readonly string[];
}

/** A discovered host on a fixture server (`basic` unless asked), and the confirmations it asked for. */
export interface FixtureHost<TTool, TResponse, TToolResults> {
  /** The host, discovered; close it after the test. */
  readonly host: McpToolHost<TTool, TResponse, TToolResults>;
  /** Every confirmation request, in order (each was answered with its "Allow once" option). */
  readonly confirmations: ConfirmationRequest[];
}

/**
 * Create and discover an McpToolHost with `adapter` on the `basic` fixture server (stdio, not
 * trusted), whose `confirm` hook records each request and allows the call once (it answers
 * with the offered `proceed_once` option object). `options` adds host options (such as
 * `promptTools`); it cannot replace the settings, the adapter or the `ui` hooks. `fixture` starts
 * another fixture server, or the same with knobs.
 *
 * @example
 * ```ts
 * const { host, confirmations } = await createFixtureHost(createGeminiAdapter());
 * const handled = await host.handleModelResponse(response);
 * expect(confirmations).toHaveLength(1);
 * ```
 */
export async function createFixtureHost<TTool, TResponse, TToolResults>(
  adapter: ModelAdapter<TTool, TResponse, TToolResults>,
  options: Omit<McpToolHostOptions<TTool, TResponse, TToolResults>, 'settings' | 'adapter' | 'ui'> = {},
  fixture: FixtureServer = {},
): Promise<FixtureHost<TTool, TResponse, TToolResults>> {
  const confirmations: ConfirmationRequest[] = [];
  const host = await McpToolHost.create({
    ...options,
    settings: {
      mcpServers: { fixture: { command: process.execPath, args: [fixtureBinPath(fixture.behaviour ?? 'basic'), ...(fixture.args ?? [])] } },
    },
    adapter,
    ui: {
      confirm: async (request) => {
        confirmations.push(request);
        return request.options.find((option) => option.id === 'proceed_once') ?? 'cancel';
      },
    },
  });
  try {
    await host.discover();
  } catch (error) {
    await host.close();
    throw error;
  }
  return { host, confirmations };
}
